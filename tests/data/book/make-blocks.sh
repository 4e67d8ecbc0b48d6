#!/bin/sh
# Remakes the chapter's blocks from the chapter (see README.md). Run from this directory:
#   sh make-blocks.sh /work/shared/F11-attention.zh.txt
S=${1:?the chapter F11-attention.zh.txt}
sed -n 17,19p "$S" > x.txt
sed -n 57,58p "$S" > w.txt
sed -n 119,120p "$S" > qkv.txt
sed -n 122,123p "$S" > qkt.txt
sed -n 129,130p "$S" > m.txt
sed -n 132,133p "$S" > s.txt
sed -n 134,135p "$S" > a.txt
sed -n 136,137p "$S" > o.txt
