// The valibot pieces every schema module shares: a whole number, an id the contract sends as a
// string or a number (kept as a string), and an amount of money in minor units.
import * as v from 'valibot';

export const int = v.pipe(v.number(), v.integer());

export const id = v.union([v.string(), v.pipe(v.number(), v.transform(String))]);

export const MoneySchema = v.object({
  amount: int,
  currency: v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/)),
});

export type Money = v.InferOutput<typeof MoneySchema>;
