// One credential (username, password, server…) with its copy button: the success page's and the
// services view's.
import { CopyButton } from './CopyButton';

export function Credential({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="sc-cred">
      <span className="sc-cred-label">{label}</span>
      <code className="sc-cred-value" data-testid={testId}>
        {value}
      </code>
      <CopyButton value={value} label={label} />
    </div>
  );
}
