/* render_html.c - `--format html` (SPEC §17): one self-contained page, inline CSS and a
 * small inline script, no request to any network or file. The tables come in the
 * chapter's order as steps (the script shows them one at a time; without it, and in
 * print, all are shown); every cell can be reached by keyboard and says how it was made
 * with the very line `trace` writes for it (as_trace_lines), never recomputed here; A
 * and S are heatmaps with their numbers. The run's JSON is embedded for the script
 * (--predict judges a guess against it). Words come from the message table. */
#include "attnstep/render.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the lines trace writes, by the cell they make ---- */

typedef struct tip {
    as_table kind;
    size_t head, row, seq;
    long col;         /* -1: every cell of the row */
    char *line;
} tip;

typedef struct tips {
    tip *v;
    size_t count, cap;
    int failed;
} tips;

static void keep_tip(void *ctx, as_table t, size_t head, size_t row, long col, const char *line)
{
    tips *ts = ctx;
    size_t len = strlen(line);

    if (ts->count == ts->cap) {
        size_t cap = ts->cap ? ts->cap * 2 : 256;
        tip *v = realloc(ts->v, cap * sizeof *v);
        if (v == NULL) {
            ts->failed = 1;
            return;
        }
        ts->v = v;
        ts->cap = cap;
    }
    while (len > 0 && line[len - 1] == ' ')
        len--; /* trace writes its lines with trailing spaces trimmed */
    if ((ts->v[ts->count].line = malloc(len + 1)) == NULL) {
        ts->failed = 1;
        return;
    }
    memcpy(ts->v[ts->count].line, line, len);
    ts->v[ts->count].line[len] = '\0';
    ts->v[ts->count] = (tip){t, head, row, ts->count, col, ts->v[ts->count].line};
    ts->count++;
}

/* Orders tips by table, head, row, column, then trace's order. */
static int tip_cmp(const void *a, const void *b)
{
    const tip *x = a, *y = b;

    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->head != y->head)
        return x->head < y->head ? -1 : 1;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The first tip for (kind, head, row, col) and how many there are (*count). */
static const tip *tips_find(const tips *ts, as_table kind, size_t head, size_t row, long col,
                            size_t *count)
{
    const tip key = {kind, head, row, 0, col, NULL};
    size_t lo = 0, hi = ts->count, n = 0;

    while (lo < hi) { /* the first not below key */
        const size_t mid = lo + (hi - lo) / 2;
        if (tip_cmp(&ts->v[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo + n < ts->count && ts->v[lo + n].kind == kind && ts->v[lo + n].head == head &&
           ts->v[lo + n].row == row && ts->v[lo + n].col == col)
        n++;
    *count = n;
    return n > 0 ? &ts->v[lo] : NULL;
}

static void tips_free(tips *ts)
{
    size_t i;

    for (i = 0; i < ts->count; i++)
        free(ts->v[i].line);
    free(ts->v);
}

/* ---- the page ---- */

typedef struct page {
    FILE *out;
    const as_problem *p;
    const as_trace *t;
    const as_render_opts *o;
    tips ts;
    int lines;      /* trace: each table's lines under it */
    size_t step;    /* steps written so far */
} page;

static void text(const page *pg, const char *s)
{
    as_xml_text(pg->out, s);
}

/* What a table is, under its name. */
static as_msg table_words(as_table kind)
{
    static const as_msg words[AS_T_COUNT] = {
        [AS_T_X] = AS_MSG_HTML_T_X, [AS_T_W] = AS_MSG_HTML_T_W, [AS_T_Q] = AS_MSG_HTML_T_Q,
        [AS_T_K] = AS_MSG_HTML_T_K, [AS_T_V] = AS_MSG_HTML_T_V, [AS_T_QKT] = AS_MSG_HTML_T_QKT,
        [AS_T_M] = AS_MSG_HTML_T_M, [AS_T_S] = AS_MSG_HTML_T_S, [AS_T_A] = AS_MSG_HTML_T_A,
        [AS_T_O] = AS_MSG_HTML_T_O, [AS_T_C] = AS_MSG_HTML_T_C,
    };
    return words[kind] != 0 ? words[kind] : AS_MSG_HTML_T_W;
}

/* Where v's numbers are in the embedded JSON (SPEC §9), "" when it holds no such table
 * (the whole Q, K, V of several heads: the JSON has each head's). */
static void json_path(char *buf, size_t size, const page *pg, const as_table_view *v)
{
    const int one = pg->p->heads == 1;

    if (v->kind == AS_T_X || v->kind == AS_T_W)
        snprintf(buf, size, "inputs.%s", v->name);
    else if (v->kind == AS_T_M || (!v->per_head && (v->kind == AS_T_C || v->kind == AS_T_O)))
        snprintf(buf, size, "%s", v->kind == AS_T_M ? "M" : v->kind == AS_T_C ? "C" : "O");
    else if (v->per_head || one)
        snprintf(buf, size, "heads.%zu.%s", v->head, v->name);
    else
        buf[0] = '\0';
}

/* The heat class of cell (i, j) of v: A by its share, S by the share it becomes (so no
 * number is made here), "x" where the mask forbids; "" for other tables. */
static const char *heat(const page *pg, const as_table_view *v, size_t i, size_t j)
{
    static const char *const level[] = {" h0", " h1", " h2", " h3", " h4"};
    const as_matrix *A;

    if (v->kind != AS_T_A && v->kind != AS_T_S)
        return "";
    if (AS_AT(pg->t->M, i, j) == -INFINITY)
        return " x";
    A = &pg->t->head[v->head].A;
    return A->v != NULL ? level[as_share_level(AS_AT(*A, i, j))] : "";
}

/* The tips of cell (i, j): its own lines, else its row's; for a cell of S or A the mask
 * forbids, why it is not readable (M's line). */
static const tip *cell_tips(const page *pg, const as_table_view *v, size_t i, size_t j, size_t *n)
{
    const int forbidden = (v->kind == AS_T_S || v->kind == AS_T_A) && AS_AT(pg->t->M, i, j) == -INFINITY;
    const tip *t = tips_find(&pg->ts, forbidden ? AS_T_M : v->kind, v->head, i, (long)j, n);

    if (t == NULL && !forbidden)
        t = tips_find(&pg->ts, v->kind, v->head, i, -1, n);
    if (v->kind == AS_T_C && !v->per_head)
        *n = 0; /* the heads side by side: no line of trace makes a cell of it alone */
    return *n > 0 ? t : NULL;
}

/* One cell: its value, its trace lines as the title (or, when no line makes it, what it
 * is), focusable, predictable when it is worked out. */
static void cell(page *pg, const as_table_view *v, const char *name, size_t i, size_t j)
{
    char num[AS_NUM_BUF];
    size_t n, k;
    const tip *t = cell_tips(pg, v, i, j, &n);
    const int worked = v->kind != AS_T_X && v->kind != AS_T_W && v->kind != AS_T_M;

    as_fmt_display(num, sizeof num, AS_AT(*v->m, i, j), pg->o->digits, pg->o->ascii);
    fprintf(pg->out, "<td class=\"c%s%s\" tabindex=\"0\" data-src=\"%s\" title=\"",
            heat(pg, v, i, j), pg->o->predict && worked ? " p" : "", t ? "trace" : "cell");
    for (k = 0; k < n; k++) {
        if (k > 0)
            fputs("&#10;", pg->out);
        text(pg, t[k].line);
    }
    if (t == NULL) {
        char line[512];
        snprintf(line, sizeof line, as_say(pg->o, AS_MSG_HTML_CELL), name, i, j, num);
        text(pg, line);
    }
    fputs("\"><span class=\"v\">", pg->out);
    text(pg, num);
    fputs("</span></td>", pg->out);
}

/* The header row: the columns' labels. */
static void header(page *pg, const as_table_view *v)
{
    char buf[32];
    size_t j;

    fputs("<thead><tr><td></td>", pg->out);
    for (j = 0; j < v->m->cols; j++) {
        fputs("<th scope=\"col\">", pg->out);
        text(pg, as_axis_label(buf, sizeof buf, v->cols, j));
        fputs("</th>", pg->out);
    }
    fputs("</tr></thead>\n", pg->out);
}

/* The lines of trace that made v, in trace's order, once each (trace's page). */
static void table_lines(page *pg, const as_table_view *v)
{
    size_t k, shown = 0;
    const char *last = "";

    for (k = 0; k < pg->ts.count; k++) {
        const tip *t = &pg->ts.v[k];
        if (t->kind != v->kind || t->head != v->head || strcmp(t->line, last) == 0 ||
            (v->kind == AS_T_C && !v->per_head))
            continue;
        if (shown++ == 0)
            fprintf(pg->out, "<details open><summary>%s</summary><ol class=\"lines\">\n",
                    as_say(pg->o, AS_MSG_HTML_LINES));
        fputs("<li>", pg->out);
        text(pg, t->line);
        fputs("</li>\n", pg->out);
        last = t->line;
    }
    if (shown > 0)
        fputs("</ol></details>\n", pg->out);
}

/* The legend of a heatmap: the quarters' colours and the masked cells. */
static void legend(page *pg, const as_table_view *v)
{
    int lv;

    fputs("<p class=\"legend\">", pg->out);
    if (v->kind == AS_T_S) {
        text(pg, as_say(pg->o, AS_MSG_HTML_SHADED_BY));
        fputc(' ', pg->out);
    }
    text(pg, as_say(pg->o, AS_MSG_HTML_LEGEND));
    for (lv = 0; lv <= 4; lv++)
        fprintf(pg->out, " <span class=\"key h%d\">%s</span>", lv, as_share_range(lv));
    fputs(" <span class=\"key x\">", pg->out);
    text(pg, as_say(pg->o, AS_MSG_FMT_MASKED));
    fputs("</span></p>\n", pg->out);
}

/* One table as one step: its name and what it is, the table, its legend and lines. */
static int step(void *ctx, const as_table_view *v)
{
    page *pg = ctx;
    char name[128], path[64], buf[32];
    size_t i, j;

    as_view_name(name, sizeof name, v, pg->o);
    json_path(path, sizeof path, pg, v);
    fprintf(pg->out, "<section class=\"step\" id=\"step%zu\">\n<h2><span class=\"n\">%zu</span> ",
            pg->step, pg->step + 1);
    text(pg, name);
    fputs(" <small>", pg->out);
    text(pg, as_say(pg->o, table_words(v->kind)));
    fprintf(pg->out, "</small></h2>\n<div class=\"scroll\"><table class=\"m\" data-j=\"%s\" "
            "data-name=\"", path);
    text(pg, name);
    fputs("\">\n", pg->out);
    header(pg, v);
    fputs("<tbody>\n", pg->out);
    for (i = 0; i < v->m->rows; i++) {
        fputs("<tr><th scope=\"row\">", pg->out);
        text(pg, as_axis_label(buf, sizeof buf, v->rows, i));
        fputs("</th>", pg->out);
        for (j = 0; j < v->m->cols; j++)
            cell(pg, v, name, i, j);
        fputs("</tr>\n", pg->out);
    }
    fputs("</tbody></table></div>\n", pg->out);
    if (v->kind == AS_T_A || v->kind == AS_T_S)
        legend(pg, v);
    if (pg->lines)
        table_lines(pg, v);
    fputs("</section>\n", pg->out);
    pg->step++;
    return ferror(pg->out) ? -1 : 0;
}

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
    ".keys,.legend,details{color:var(--muted)}.scroll{overflow:auto;max-width:100%;max-height:80vh}\n"
    "table.m{border-collapse:collapse;margin:.25rem 0;font-variant-numeric:tabular-nums}\n"
    "table.m th,table.m td{border:1px solid var(--line);padding:.2rem .5rem;text-align:right;"
    "white-space:nowrap}table.m th{background:var(--head);color:var(--fg);font-weight:600}\n"
    "table.m thead td{border:0}td.c:focus{outline:3px solid var(--focus);outline-offset:-3px}\n"
    ".h0{background:var(--bg);color:var(--fg)}.h1{background:#fde725;color:#000}"
    ".h2{background:#5ec962;color:#000}.h3{background:#21918c;color:#000}"
    ".h4{background:#3b528b;color:#fff}.x{background:var(--head);color:var(--fg)}\n"
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
    "white-space:pre-wrap;color:var(--fg);margin:.25rem 0;padding-left:1.5rem}\n"
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
    "return v[c.parentNode.rowIndex-1][c.cellIndex-1];}\n"
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

/* JSON in a <script> element: every "<" written as \u003c (JSON allows it only inside
 * strings, where \u003c reads back the same), so no token can end the element. */
static void embed(page *pg, const char *id, const char *json, size_t len)
{
    size_t i;

    fprintf(pg->out, "<script type=\"application/json\" id=\"%s\">", id);
    for (i = 0; i < len; i++) {
        if (json[i] == '<')
            fputs("\\u003c", pg->out);
        else
            fputc(json[i], pg->out);
    }
    fputs("</script>\n", pg->out);
}

/* The run's JSON, as `run --format json` writes it (rc 1), or the words the script
 * shows (rc 0), embedded. Returns 0, or -1 when memory ran out. */
static int embed_json(page *pg, int run)
{
    static const struct { const char *key; as_msg m; } word[] = {
        {"guess", AS_MSG_HTML_GUESS}, {"right", AS_MSG_HTML_RIGHT}, {"wrong", AS_MSG_HTML_WRONG}};
    char *buf = NULL;
    size_t len = 0, k;
    FILE *mem = open_memstream(&buf, &len);
    int rc = 0;

    if (mem == NULL)
        return -1;
    if (run)
        rc = as_render_json(mem, pg->p, pg->t, pg->o);
    for (k = 0; !run && k < sizeof word / sizeof word[0]; k++) {
        fprintf(mem, "%s\"%s\":", k ? "," : "{", word[k].key);
        as_json_string(mem, as_say(pg->o, word[k].m));
    }
    if (!run)
        fputc('}', mem);
    rc |= fclose(mem) != 0 ? -1 : 0;
    if (rc == 0)
        embed(pg, run ? "as-json" : "as-words", buf, len);
    free(buf);
    return rc;
}

static void head(page *pg)
{
    const char *title = pg->p->in->title != NULL ? pg->p->in->title : "attnstep";

    fprintf(pg->out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n<title>",
            pg->o->lang == AS_LANG_ZH ? "zh-CN" : "en");
    text(pg, title);
    fprintf(pg->out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
    text(pg, title);
    fputs("</h1>\n<p class=\"keys\">", pg->out);
    text(pg, as_say(pg->o, AS_MSG_HTML_KEYS));
    if (pg->o->predict) {
        fputc(' ', pg->out);
        text(pg, as_say(pg->o, AS_MSG_HTML_PREDICT));
    }
    fprintf(pg->out, "</p>\n<div class=\"controls\" id=\"as-controls\" hidden>"
            "<button type=\"button\" id=\"as-next\">%s</button>"
            "<button type=\"button\" id=\"as-all\">%s</button><span id=\"as-count\"></span></div>\n<main>\n",
            as_say(pg->o, AS_MSG_HTML_NEXT), as_say(pg->o, AS_MSG_HTML_ALL));
}

static int render(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o,
                  int lines)
{
    page pg = {out, p, t, o, {0}, lines, 0};
    int rc = as_trace_lines(p, t, o, keep_tip, &pg.ts);

    if (rc == 0 && !pg.ts.failed) {
        qsort(pg.ts.v, pg.ts.count, sizeof *pg.ts.v, tip_cmp);
        head(&pg);
        rc = as_each_table(p, t, o, step, &pg);
        fputs("</main>\n<div id=\"as-live\" role=\"status\" aria-live=\"polite\"></div>\n"
              "<div id=\"as-tip\" role=\"tooltip\"></div>\n", out);
        rc |= embed_json(&pg, 0);
        rc |= embed_json(&pg, 1);
        fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", script);
    }
    rc |= pg.ts.failed ? -1 : 0;
    tips_free(&pg.ts);
    return rc != 0 || ferror(out) ? -1 : 0;
}

int as_render_html(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    return render(out, p, t, o, 0);
}

int as_render_html_trace(FILE *out, const as_problem *p, const as_trace *t,
                         const as_render_opts *o)
{
    return render(out, p, t, o, 1);
}
