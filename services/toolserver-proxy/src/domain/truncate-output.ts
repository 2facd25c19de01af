const MARKER = '[truncated by inquest]';

/**
 * Shrinks a JSON value until its serialized form fits `maxBytes`, keeping its shape: long
 * strings are cut and long arrays trimmed, each with a marker. Falls back to a prefix of the
 * serialized text when shape-keeping trimming is not enough.
 */
export function truncateOutput(
  value: Record<string, unknown>,
  maxBytes: number,
  originalBytes: number,
): Record<string, unknown> {
  let stringMax = 4096;
  let arrayMax = 200;
  for (let i = 0; i < 12; i++) {
    const shrunk = shrink(value, stringMax, arrayMax, 0) as Record<string, unknown>;
    const candidate = {
      ...shrunk,
      _inquest_truncated: `${MARKER} output of ${originalBytes} bytes exceeded the ${maxBytes}-byte limit`,
    };
    if (Buffer.byteLength(JSON.stringify(candidate)) <= maxBytes) return candidate;
    stringMax = Math.max(16, Math.floor(stringMax / 2));
    arrayMax = Math.max(1, Math.floor(arrayMax / 2));
  }
  const text = JSON.stringify(value);
  const room = Math.max(0, maxBytes - 200);
  return {
    _inquest_truncated: `${MARKER} output of ${originalBytes} bytes exceeded the ${maxBytes}-byte limit`,
    partial_json: Buffer.from(text)
      .subarray(0, room)
      .toString('utf8')
      .replace(/\uFFFD+$/, ''),
  };
}

function shrink(v: unknown, stringMax: number, arrayMax: number, depth: number): unknown {
  if (typeof v === 'string') {
    return v.length > stringMax ? `${v.slice(0, stringMax)}... ${MARKER} (${v.length} chars)` : v;
  }
  if (Array.isArray(v)) {
    if (depth > 20) return [MARKER];
    const kept = v.slice(0, arrayMax).map((x) => shrink(x, stringMax, arrayMax, depth + 1));
    if (v.length > arrayMax) kept.push(`${MARKER} ${v.length - arrayMax} more items`);
    return kept;
  }
  if (typeof v === 'object' && v !== null) {
    if (depth > 20) return MARKER;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = shrink(x, stringMax, arrayMax, depth + 1);
    return out;
  }
  return v;
}
