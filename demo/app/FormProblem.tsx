import { describeError } from './describeError';

/** What went wrong with a form's action, in a person's words; the library's message in the tooltip. */
export function FormProblem({ failure, testId }: { failure: unknown; testId: string }) {
  if (failure === undefined || failure === null) return null;
  return (
    <p className="error" role="alert" data-testid={testId} title={(failure as Error).message}>
      {describeError(failure)}
    </p>
  );
}
