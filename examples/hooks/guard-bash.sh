#!/bin/sh
# A Claude Code PreToolUse hook: refuse destructive shell commands.
# Reads the hook payload on stdin; exit 2 denies with stderr as the reason.
input=$(cat)
case "$input" in
  *'rm -rf'*) echo "rm -rf is not allowed in this project" >&2; exit 2 ;;
esac
exit 0
