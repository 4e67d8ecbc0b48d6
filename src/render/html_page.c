/* html_page.c - the one page skeleton of `--format html` (SPEC §17, html.h): the head
 * with its inline style, the steps, the grids of focusable cells whose tooltips are the
 * lines that made them, the embedded words and JSON, and the small inline script that
 * reveals the steps one at a time (all of them without script and in print), moves
 * between cells by the arrows, says a cell's lines in a tooltip and an aria-live region
 * and, with --predict, hides the worked-out values until a guess is right. Every page
 * (run, trace, decode, grad, --tiles, the block, check's class report) is written with
 * it; it computes nothing and spells no word of its own (the message table does). */
#include "attnstep/html.h"
#include "attnstep/numfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the page carries: style, words and data for the script, the script ---- */

static const char style[] =
    ":root{color-scheme:light dark;--bg:#fff;--fg:#1a1a1a;--muted:#4d4d4d;--line:#8c8c8c;"
    "--head:#eef0f3;--focus:#0b57d0;--tipbg:#1a1a1a;--tipfg:#fff;--btn:#0b57d0;--btnfg:#fff}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#121417;--fg:#e8eaed;--muted:#c4c7cc;"
    "--line:#6b7078;--head:#262a30;--focus:#8ab4f8;--tipbg:#e8eaed;--tipfg:#121417;"
    "--btn:#8ab4f8;--btnfg:#0b1a33}}\n"
    "body{font:16px/1.5 system-ui,\"Noto Sans CJK SC\",\"Source Han Sans SC\",\"PingFang SC\","
    "\"Microsoft YaHei\",\"Droid Sans Fallback\",sans-serif;background:var(--bg);color:var(--fg);margin:0 auto;"
    "max-width:72rem;padding:1rem 1rem 5rem}\n"
    "h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .25rem}"
    "h2 small{font-weight:400;color:var(--muted);font-size:.95rem;margin-left:.5rem}"
    "h2 .n{display:inline-block;min-width:1.6em;color:var(--muted)}\n"
    "main{display:flex;flex-wrap:wrap;gap:0 2.5rem;align-items:flex-start}"
    ".step{max-width:100%;min-width:0}\n"
    ".cap{margin:.6rem 0 0;font-weight:600}.keys,.legend,details{color:var(--muted)}.scroll{overflow:auto;max-width:100%;max-height:80vh}.grid{display:inline-block;vertical-align:top;margin-right:1.2rem;max-width:100%}\n"
    "table.m{border-collapse:collapse;margin:.25rem 0;font-variant-numeric:tabular-nums}\n"
    "table.m th,table.m td{border:1px solid var(--line);padding:.2rem .5rem;text-align:right;"
    "white-space:nowrap}table.m th{background:var(--head);color:var(--fg);font-weight:600}\n"
    "table.m tr.walk th{background:var(--focus);color:var(--bg)}table.m thead td{border:0}td.c:focus{outline:3px solid var(--focus);outline-offset:-3px}\n"
    ".h0{background:var(--bg);color:var(--fg)}.h1{background:#fde725;color:#000}"
    ".h2{background:#5ec962;color:#000}.h3{background:#21918c;color:#000}"
    ".h4{background:#3b528b;color:#fff}.x{background:var(--head);color:var(--fg)}\n"
    "table.g{border-collapse:collapse;margin:.25rem 0}table.g th,table.g td{border:1px solid var(--line);"
    "padding:.2rem .6rem;text-align:left}table.g thead th{background:var(--head)}\n"
    "figure.bar{margin:.5rem 0;max-width:40rem}figure.bar svg{display:block;border:1px solid var(--line)}"
    ".swatch{display:inline-block;width:1em;height:1em;vertical-align:-.15em;margin:0 .3rem 0 .6rem;"
    "border:1px solid var(--line)}.b0{fill:#3b528b;background:#3b528b}.b1{fill:#21918c;background:#21918c}"
    ".b2{fill:#fde725;background:#fde725}.b3{fill:#bdbdbd;background:#bdbdbd}"
    "@media (prefers-color-scheme:dark){.b0{fill:#7e9be0;background:#7e9be0}"
    ".b1{fill:#2fb5ae;background:#2fb5ae}.b3{fill:#8a8f96;background:#8a8f96}}ul.wrong{margin:.25rem 0}li.diag{list-style:none;margin-top:.2rem}\n"
    ".key{display:inline-block;padding:0 .4rem;border:1px solid var(--line);margin-left:.25rem}\n"
    ".controls{position:sticky;top:0;background:var(--bg);padding:.5rem 0;z-index:2}"
    ".controls button{font:inherit;background:var(--btn);color:var(--btnfg);border:0;"
    "border-radius:4px;padding:.3rem .9rem;margin-right:.5rem;cursor:pointer}"
    ".controls button:focus{outline:3px solid var(--fg);outline-offset:2px}\n"
    "#as-live{position:fixed;left:0;right:0;bottom:0;background:var(--head);color:var(--fg);"
    "border-top:1px solid var(--line);padding:.4rem 1rem;white-space:pre-wrap;min-height:1.5em}\n"
    "#as-tip{position:absolute;max-width:40rem;background:var(--tipbg);color:var(--tipfg);"
    "padding:.4rem .6rem;border-radius:4px;white-space:pre-wrap;z-index:3;pointer-events:none}\n"
    "td.p input{width:6rem;font:inherit;text-align:right}td.p.wrong input{outline:2px solid #b3261e}\n"
    ".lines{font-family:ui-monospace,\"Noto Sans Mono CJK SC\",monospace;font-size:.9rem;"
    "color:var(--fg);margin:.25rem 0;padding-left:1.5rem}.lines li{white-space:pre-wrap}"
    "pre.lines{padding:0;white-space:pre-wrap}table.m thead td{font-weight:600;text-align:left}\n"
    "@media print{@page{size:A4;margin:14mm}body{max-width:none;padding:0}"
    ".controls,.keys,#as-live,#as-tip,td.p input{display:none!important}td.c:focus{outline:none}.step[hidden]{display:block!important}"
    ".scroll{overflow:visible;max-height:none}td.p .v{visibility:visible!important}"
    "section{break-inside:avoid}*{print-color-adjust:exact;-webkit-print-color-adjust:exact}}\n";

/* The script: reveals steps (→, Space, the buttons), moves between cells (arrows), shows
 * a cell's title as a tooltip and in the aria-live region, and with --predict hides the
 * worked-out values until a guess is right (judged as `check` judges a cell). */
static const char script[] =
    "(function(){'use strict';var d=document,W=JSON.parse(d.getElementById('as-words').textContent),"
    "J=JSON.parse(d.getElementById('as-json').textContent);d.documentElement.classList.add('js');\n"
    "var steps=[].slice.call(d.querySelectorAll('.step')),shown=0,live=d.getElementById('as-live'),"
    "tip=d.getElementById('as-tip'),ctl=d.getElementById('as-controls'),cnt=d.getElementById('as-count');\n"
    "function show(n){shown=Math.max(1,Math.min(n,steps.length));steps.forEach(function(s,k){s.hidden=k>=shown;});"
    "cnt.textContent=shown+' / '+steps.length;}\n"
    "function say(c){live.textContent=c.dataset.tip;var r=c.getBoundingClientRect();tip.textContent=c.dataset.tip;"
    "tip.hidden=false;var x=Math.min(r.left,d.documentElement.clientWidth-tip.offsetWidth-8);"
    "tip.style.left=(window.scrollX+Math.max(0,x))+'px';tip.style.top=(window.scrollY+r.bottom+4)+'px';}\n"
    "function value(c){var t=c.closest('table'),p=t.dataset.j.split('.'),v=J,k;for(k=0;k<p.length;k++)v=v[p[k]];"
    "if(!Array.isArray(v[0]))v=[v];return v[c.parentNode.rowIndex-1][c.cellIndex-1];}\n"
    "function judge(s,x){s=s.trim().replace(/\\u2212/g,'-');if(/^-(\\u221e|inf)$/i.test(s))return x===null;"
    "var g=Number(s);if(s===''||isNaN(g)||x===null)return false;var m=/\\.(\\d+)/.exec(s.replace(/e.*$/i,'')),"
    "u=m?Math.pow(10,-m[1].length):0;return Math.abs(g-x)<=u/2*(1+1e-9)+1e-15*Math.abs(x);}\n"
    "[].forEach.call(d.querySelectorAll('td.c'),function(c){c.dataset.tip=c.title;c.removeAttribute('title');"
    "c.tabIndex=-1;c.addEventListener('focus',function(){say(c);});c.addEventListener('mouseenter',function(){say(c);});"
    "c.addEventListener('mouseleave',function(){tip.hidden=true;});});\n"
    "[].forEach.call(d.querySelectorAll('table.m'),function(t){var c=t.querySelector('td.c');if(c)c.tabIndex=0;"
    "t.addEventListener('keydown',function(e){var c=e.target.closest('td.c');if(!c)return;"
    "var r=c.parentNode.rowIndex,k=c.cellIndex,R=t.rows,dr={ArrowUp:-1,ArrowDown:1}[e.key]||0,"
    "dk={ArrowLeft:-1,ArrowRight:1}[e.key]||0;if(!dr&&!dk){if(e.key==='Escape')tip.hidden=true;return;}"
    "var row=R[r+dr],n=row&&row.cells[k+dk];if(n&&n.classList.contains('c')){e.preventDefault();e.stopPropagation();"
    "c.tabIndex=-1;n.tabIndex=0;n.focus();}});});\n"
    "[].forEach.call(d.querySelectorAll('td.p'),function(c){var i=d.createElement('input');i.type='text';"
    "i.inputMode='decimal';i.setAttribute('aria-label',W.guess+' '+c.dataset.tip);c.querySelector('.v').hidden=true;"
    "c.appendChild(i);i.addEventListener('keydown',function(e){e.stopPropagation();if(e.key!=='Enter')return;"
    "if(judge(i.value,value(c))){c.querySelector('.v').hidden=false;i.remove();c.classList.remove('wrong','p');"
    "live.textContent=W.right+c.dataset.tip;c.focus();}else{c.classList.add('wrong');live.textContent=W.wrong+i.value;}});});\n"
    "d.getElementById('as-next').addEventListener('click',function(){show(shown+1);});"
    "d.getElementById('as-all').addEventListener('click',function(){show(steps.length);});\n"
    "d.addEventListener('keydown',function(e){if(e.target.closest&&e.target.closest('table.m,input,button'))return;"
    "if(e.key==='ArrowRight'||e.key===' '){e.preventDefault();show(shown+1);}});\n"
    "ctl.hidden=false;tip.hidden=true;show(1);})();\n";

/* The words the script says. */
static int words_json(FILE *out, void *ctx)
{
    static const struct { const char *key; as_msg m; } word[] = {
        {"guess", AS_MSG_HTML_GUESS}, {"right", AS_MSG_HTML_RIGHT}, {"wrong", AS_MSG_HTML_WRONG}};
    const as_html *h = ctx;
    size_t k;

    for (k = 0; k < sizeof word / sizeof word[0]; k++) {
        fprintf(out, "%s\"%s\":", k ? "," : "{", word[k].key);
        as_json_string(out, as_say(h->o, word[k].m));
    }
    fputc('}', out);
    return 0;
}

/* What json(ctx) writes, embedded as element id, written as it is made (no copy of it
 * is kept): no "<" can end the element, since JSON has one only inside a string, which
 * as_json_string() writes as \u003c here. Returns 0, or -1 when json failed. */
static int embed_json(as_html *h, const char *id, int (*json)(FILE *, void *), void *ctx)
{
    int rc;

    fprintf(h->out, "<script type=\"application/json\" id=\"%s\">", id);
    as_json_embed(h->out);
    rc = json != NULL ? json(h->out, ctx) : (fputs("{}", h->out) < 0 ? -1 : 0);
    as_json_embed(NULL);
    fputs("</script>\n", h->out);
    return rc;
}

void as_html_text(as_html *h, const char *s)
{
    as_xml_text(h->out, s);
}

void as_html_begin(as_html *h, FILE *out, const char *title, as_msg keys,
                   const as_render_opts *o)
{
    *h = (as_html){out, o, 0};
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n<title>",
            o->lang == AS_LANG_ZH ? "zh-CN" : "en");
    as_html_text(h, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
    as_html_text(h, title);
    fputs("</h1>\n<p class=\"keys\">", out);
    as_html_text(h, as_say(o, keys));
    if (o->predict) {
        fputc(' ', out);
        as_html_text(h, as_say(o, AS_MSG_HTML_PREDICT));
    }
    fprintf(out, "</p>\n<div class=\"controls\" id=\"as-controls\" hidden>"
            "<button type=\"button\" id=\"as-next\">%s</button>"
            "<button type=\"button\" id=\"as-all\">%s</button><span id=\"as-count\"></span></div>\n<main>\n",
            as_say(o, AS_MSG_HTML_NEXT), as_say(o, AS_MSG_HTML_ALL));
}

const char *as_html_title(char *buf, size_t size, const char *title, const char *kind)
{
    if (title != NULL)
        snprintf(buf, size, "%s · %s", title, kind);
    else
        snprintf(buf, size, "%s", kind);
    return buf;
}

void as_html_step(as_html *h, const char *name, const char *words)
{
    fprintf(h->out, "<section class=\"step\" id=\"step%zu\">\n<h2><span class=\"n\">%zu</span> ",
            h->step, h->step + 1);
    as_html_text(h, name);
    if (words != NULL) {
        fputs(" <small>", h->out);
        as_html_text(h, words);
        fputs("</small>", h->out);
    }
    fputs("</h2>\n", h->out);
}

void as_html_step_end(as_html *h)
{
    fputs("</section>\n", h->out);
    h->step++;
}

/* One cell: its value, its lines as the title (or, when no line makes it, what it is),
 * focusable, predictable when it is worked out. */
static void cell(as_html *h, const as_html_grid *g, double v, size_t i, size_t j)
{
    const char *lines[AS_HTML_TIP_MAX];
    char num[AS_NUM_BUF];
    const size_t n = g->tip != NULL ? g->tip(g->ctx, i, j, lines) : 0;
    size_t k;

    as_fmt_display(num, sizeof num, v, h->o->digits, h->o->ascii);
    fprintf(h->out, "<td class=\"c%s%s\" tabindex=\"0\" data-src=\"%s\" title=\"",
            g->heat != NULL ? g->heat(g->ctx, i, j) : "",
            h->o->predict && g->worked && g->json[0] != '\0' ? " p" : "", /* judged by its JSON */
            n > 0 ? "trace" : "cell");
    for (k = 0; k < n; k++) {
        if (k > 0)
            fputs("&#10;", h->out);
        as_html_text(h, lines[k]);
    }
    if (n == 0) {
        char line[512];
        snprintf(line, sizeof line, as_say(h->o, AS_MSG_HTML_CELL), g->name, i, j, num);
        as_html_text(h, line);
    }
    fputs("\"><span class=\"v\">", h->out);
    as_html_text(h, num);
    fputs("</span></td>", h->out);
}

int as_html_grid_write(as_html *h, const as_html_grid *g)
{
    char buf[32];
    size_t i, j;

    fputs("<div class=\"grid\">", h->out); /* its caption and table, beside the next grid */
    if (g->caption != NULL) {
        fputs("<p class=\"cap\">", h->out);
        as_html_text(h, g->caption);
        fputs("</p>\n", h->out);
    }
    fprintf(h->out, "<div class=\"scroll\"><table class=\"m\" data-j=\"%s\" data-name=\"", g->json);
    as_html_text(h, g->name);
    fputs("\">\n<thead><tr><td>", h->out);
    if (g->corner != NULL)
        as_html_text(h, g->corner);
    fputs("</td>", h->out);
    for (j = 0; j < g->r.cols; j++) {
        fputs("<th scope=\"col\">", h->out);
        as_html_text(h, as_axis_label(buf, sizeof buf, g->cols, j));
        fputs("</th>", h->out);
    }
    fputs("</tr></thead>\n<tbody>\n", h->out);
    for (i = 0; i < g->r.rows; i++) {
        const double *row = g->r.row(g->r.ctx, i);
        if (row == NULL)
            return -1;
        fputs(g->marks && i >= g->mark_first && i <= g->mark_last ? "<tr class=\"walk\">" : "<tr>",
              h->out);
        fputs("<th scope=\"row\">", h->out);
        as_html_text(h, as_axis_label(buf, sizeof buf, g->rows, i));
        fputs("</th>", h->out);
        for (j = 0; j < g->r.cols; j++)
            cell(h, g, row[j], i, j);
        fputs("</tr>\n", h->out);
    }
    fputs("</tbody></table></div></div>\n", h->out);
    return ferror(h->out) ? -1 : 0;
}

void as_html_legend(as_html *h, int scores)
{
    int lv;

    fputs("<p class=\"legend\">", h->out);
    if (scores) {
        as_html_text(h, as_say(h->o, AS_MSG_HTML_SHADED_BY));
        fputc(' ', h->out);
    }
    as_html_text(h, as_say(h->o, AS_MSG_HTML_LEGEND));
    for (lv = 0; lv <= 4; lv++)
        fprintf(h->out, " <span class=\"key h%d\">%s</span>", lv, as_share_range(lv));
    fputs(" <span class=\"key x\">", h->out);
    as_html_text(h, as_say(h->o, AS_MSG_FMT_MASKED));
    fputs("</span></p>\n", h->out);
}

void as_html_lines_begin(as_html *h, const char *heading)
{
    fputs("<details open><summary>", h->out);
    as_html_text(h, heading != NULL ? heading : as_say(h->o, AS_MSG_HTML_LINES));
    fputs("</summary><ol class=\"lines\">\n", h->out);
}

void as_html_line(as_html *h, const char *line)
{
    fputs("<li>", h->out);
    as_html_text(h, line);
    fputs("</li>\n", h->out);
}

void as_html_lines_end(as_html *h)
{
    fputs("</ol></details>\n", h->out);
}

void as_html_walk(as_html *h, const char *heading, const as_block *walk)
{
    size_t i;

    fputs("<details open><summary>", h->out);
    as_html_text(h, heading != NULL ? heading : as_say(h->o, AS_MSG_HTML_LINES));
    fputs("</summary><pre class=\"lines\">", h->out);
    for (i = 0; i < walk->count; i++) { /* as the walk writes them: their columns align */
        if (i > 0)
            fputc('\n', h->out);
        as_html_text(h, walk->line[i]);
    }
    fputs("</pre></details>\n", h->out);
}

int as_html_end(as_html *h, int (*json)(FILE *out, void *ctx), void *ctx)
{
    int rc;

    fputs("</main>\n<div id=\"as-live\" role=\"status\" aria-live=\"polite\"></div>\n"
          "<div id=\"as-tip\" role=\"tooltip\"></div>\n", h->out);
    rc = embed_json(h, "as-words", words_json, h);
    rc |= embed_json(h, "as-json", json, ctx);
    fprintf(h->out, "<script>\n%s</script>\n</body>\n</html>\n", script);
    return rc != 0 || ferror(h->out) ? -1 : 0;
}
