/**
 * A model type whose fields a builder may still set: a hot path adds a value's optional fields one
 * by one, since V8 builds an object literal with conditional spreads (`...(x ? { a } : {})`)
 * through a slow generic copy, a few microseconds each time.
 */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };
