#!/usr/bin/env bash
# Builds and runs Examples/MarkdownConsumer, a program that renders with the TagflowMarkdown
# library product beside parses of its own through cmark-gfm, in its own scratch folder
# (.build-markdown-consumer); then checks that the program defines no function of libcmark-gfm
# (only the tagflow executable links CCmarkTables, which does).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$PWD/.build-markdown-consumer"
swift build --package-path Examples/MarkdownConsumer --scratch-path "$scratch"
"$scratch/debug/MarkdownConsumer"
if nm "$scratch/debug/MarkdownConsumer" | grep -q ' T cmark_manage_extensions_special_characters$'; then
    echo "error: a program using the TagflowMarkdown library defines cmark_manage_extensions_special_characters" >&2
    exit 1
fi
echo "markdown consumer: no function of libcmark-gfm is defined in the program"
