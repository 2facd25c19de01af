#!/usr/bin/env bash
# Creates the package.json and project.json of a project: new-project.sh libs|services|tools NAME "description"
set -euo pipefail
group=$1; name=$2; desc=${3:-}
dir="$group/$name"
mkdir -p "$dir/src"
case $group in
  libs) pkg="@inquest/$name"; type=lib ;;
  services) pkg="@inquest/$name-service"; type=service ;;
  tools) pkg="@inquest/tool-$name"; type=tool ;;
esac
if [ ! -f "$dir/package.json" ]; then
cat > "$dir/package.json" <<JSON
{
  "name": "$pkg",
  "version": "0.1.0",
  "private": true,
  "description": "$desc",
  "main": "dist/index.js",
  "types": "src/index.ts",
  "exports": {
    ".": { "types": "./src/index.ts", "default": "./dist/index.js" },
    "./testing": { "types": "./src/testing/index.ts", "default": "./dist/testing/index.js" },
    "./package.json": "./package.json"
  }
}
JSON
fi
if [ ! -f "$dir/project.json" ]; then
cat > "$dir/project.json" <<JSON
{
  "name": "$name",
  "\$schema": "../../node_modules/nx/schemas/project-schema.json",
  "sourceRoot": "$dir/src",
  "projectType": "$([ $type = lib ] && echo library || echo application)",
  "tags": ["type:$type", "scope:$name"],
  "targets": { "build": {}, "test": {}, "lint": {} }
}
JSON
fi
