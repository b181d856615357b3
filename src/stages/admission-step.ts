import { Observable, type OperatorFunction } from 'rxjs';

/**
 * One admission check as a plain function: the value it passes on, or undefined for one it dropped
 * (and reported). The default admission runs its checks as one chain of steps ({@link andThen}):
 * one RxJS stage for the whole chain instead of one or two for each check, for each of the
 * hundreds of thousands of links a crawl finds.
 */
export type AdmissionStep<In, Out> = (value: In) => Out | undefined;

/**
 * The steps one after the other, each on what the one before passed on; a step that drops a value
 * ends its run.
 *
 * @example
 * andThen((n: number) => (n > 0 ? n : undefined), (n) => String(n))(2) //=> '2'
 */
export function andThen<A, B, C>(first: AdmissionStep<A, B>, second: AdmissionStep<B, C>): AdmissionStep<A, C>;
export function andThen<A, B, C, D>(a: AdmissionStep<A, B>, b: AdmissionStep<B, C>, c: AdmissionStep<C, D>): AdmissionStep<A, D>;
export function andThen<A, B, C, D, E>(a: AdmissionStep<A, B>, b: AdmissionStep<B, C>, c: AdmissionStep<C, D>, d: AdmissionStep<D, E>): AdmissionStep<A, E>;
export function andThen(...steps: AdmissionStep<unknown, unknown>[]): AdmissionStep<unknown, unknown> {
  return (value) => {
    let passed: unknown = value;
    for (const step of steps) {
      passed = step(passed);
      if (passed === undefined) return undefined;
    }
    return passed;
  };
}

/**
 * A step as an operator: what it passes on goes downstream, what it drops does not; an error it
 * throws ends the stream, as it would in `map` or `filter`.
 *
 * @example
 * of(1, -1, 2).pipe(stepOperator((n: number) => (n > 0 ? n * 10 : undefined))) //=> 10, 20
 */
export function stepOperator<In, Out>(step: AdmissionStep<In, Out>): OperatorFunction<In, Out> {
  return (source) =>
    new Observable<Out>((subscriber) =>
      source.subscribe({
        next: (value) => {
          let out: Out | undefined;
          try {
            out = step(value);
          } catch (err) {
            return subscriber.error(err);
          }
          if (out !== undefined) subscriber.next(out);
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      }),
    );
}
