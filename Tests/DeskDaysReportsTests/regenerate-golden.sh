#!/usr/bin/env bash
# Rewrites Tests/DeskDaysReportsTests/Golden/* from the current renderers.
# Review the diff, and say in the commit why the expected output changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
DESKDAYS_REGENERATE_GOLDEN=1 swift test --scratch-path "${SCRATCH:-.build-reports}" --filter DeskDaysReportsTests.GoldenTests
git status --short Tests/DeskDaysReportsTests/Golden
