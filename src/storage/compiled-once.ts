import { CompiledQuery, type Compilable } from 'kysely';

/**
 * A query compiled once, run with fresh arguments: `build` is called once with sentinel values,
 * and each call puts its arguments where the sentinels were among the compiled parameters (the
 * others, such as a constant `limit 1`, stay). Kysely builds and compiles a query on every
 * execution otherwise, which costs more than a primary-key read (docs/architecture.md,
 * "Stated exceptions").
 */
export function compiledOnce<Args extends readonly (string | number)[]>(
  arity: Args['length'], build: (...args: Args) => Compilable,
): (...args: Args) => CompiledQuery {
  const sentinels = Array.from({ length: arity }, (_, i) => -987_654_321 - i) as unknown as Args;
  const compiled = build(...sentinels).compile();
  const slots = sentinels.map((sentinel) => compiled.parameters.indexOf(sentinel));
  if (slots.some((slot) => slot < 0)) throw new Error(`compiledOnce: an argument is not a parameter of ${compiled.sql}`);
  return (...args) => {
    const parameters = [...compiled.parameters];
    for (let i = 0; i < slots.length; i++) parameters[slots[i]!] = args[i];
    return CompiledQuery.raw(compiled.sql, parameters);
  };
}
