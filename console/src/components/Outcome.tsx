// What became of the last action on a screen: what it did, or why the sandbox refused it.
import type { UseMutationResult } from '@tanstack/react-query';
import { ErrorState } from './states.tsx';

export function Outcome<Result, Variables>({
  action,
  what,
  done,
}: {
  action: UseMutationResult<Result, Error, Variables>;
  /** The action, as the failure names it: "Shipping the order". */
  what: string;
  /** The success, as a sentence. */
  done: (result: Result, variables: Variables) => string;
}) {
  if (action.isError) return <ErrorState error={action.error} action={`${what} failed`} />;
  if (action.isSuccess) {
    return (
      <p role="status" className="notice success">
        {done(action.data, action.variables)}
      </p>
    );
  }
  return null;
}
