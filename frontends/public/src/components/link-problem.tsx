/** Why a mailed link (reset, email confirmation) cannot be used, and what to do instead. */
export function LinkProblem({ reason, remedy }: { reason: string; remedy: string }) {
  return (
    <div className="clipit-notice clipit-notice--warning" role="alert">
      <strong>This link cannot be used</strong>
      <span>
        {reason}. {remedy}
      </span>
    </div>
  );
}
