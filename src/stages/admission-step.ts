import { Observable, type OperatorFunction } from 'rxjs';

/**
 * One admission check as a plain function: the value it passes on, or undefined for one it dropped
 * (and reported). The default admission runs its checks as one chain of steps ({@link andThen}):
 * one RxJS stage for the whole chain instead of one or two for each check, for each of the
 * hundreds of thousands of links a crawl finds.
 */
export type AdmissionStep<In, Out> = (value: In) => Out | undefined;

/**
 * `first`, then `second` on what it passed on.
 *
 * @example
 * andThen((n: number) => (n > 0 ? n : undefined), (n) => String(n))(2) //=> '2'
 */
export function andThen<A, B, C>(first: AdmissionStep<A, B>, second: AdmissionStep<B, C>): AdmissionStep<A, C> {
  return (value) => {
    const passed = first(value);
    return passed === undefined ? undefined : second(passed);
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
