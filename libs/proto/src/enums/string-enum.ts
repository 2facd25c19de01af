/**
 * A proto enum and the strings that name its values in the REST API and in storage.
 *
 * Each enum-typed field sits next to the deprecated string field it replaces (same meaning, new
 * field number); writers set both, readers take the enum and fall back to the string when the
 * enum is unset (a peer from before the enum). This is the one place that knows which string is
 * which value.
 */
export interface StringEnum<N extends string, E extends number> {
  /** every name, in the order of the table */
  readonly names: readonly N[];
  /** whether `s` names a value */
  isName(s: string | undefined): s is N;
  /** the value a name stands for; the zero value (`*_UNSPECIFIED`) for anything else */
  toProto(name: string | undefined): E;
  /** the name of a value; undefined for the zero value and for numbers this build does not know */
  fromProto(value: E | number | undefined): N | undefined;
  /**
   * What a reader of a dual-written field uses: the enum's name when the enum is set to a value
   * this build knows, else the deprecated string when it is a name, else undefined.
   */
  read(value: E | number | undefined, legacy: string | undefined): N | undefined;
}

/**
 * Builds the mapping of one enum from its table of `name → value`. The zero value must not be in
 * the table (it means "not set"); two names for one value are refused.
 */
export function stringEnum<N extends string, E extends number>(
  table: Readonly<Record<N, E>>,
  unspecified: E,
): StringEnum<N, E> {
  const names = Object.keys(table) as N[];
  const byValue = new Map<number, N>();
  for (const name of names) {
    const value = table[name];
    if (value === unspecified) throw new Error(`${name}: the zero value means "not set"`);
    if (byValue.has(value))
      throw new Error(`${name}: value ${value} already names ${byValue.get(value)}`);
    byValue.set(value, name);
  }
  const isName = (s: string | undefined): s is N =>
    s !== undefined && Object.prototype.hasOwnProperty.call(table, s);
  const fromProto = (value: E | number | undefined): N | undefined =>
    value === undefined ? undefined : byValue.get(value);
  return {
    names,
    isName,
    toProto: (name) => (isName(name) ? table[name] : unspecified),
    fromProto,
    read: (value, legacy) => fromProto(value) ?? (isName(legacy) ? legacy : undefined),
  };
}
