#!/usr/bin/env bash
# Prints Tagflow's version, as `tagflow --version` does, read from the source
# (TagflowVersion.current) so that release scripts need no build to know it.
set -euo pipefail
cd "$(dirname "$0")/.."
sed -n 's/.*static let current = "\(.*\)"/\1/p' Sources/TagflowCore/Cache/BuildCache.swift
