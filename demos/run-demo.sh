#!/usr/bin/env bash
echo "demo: not yet available" >&2
exit 1
