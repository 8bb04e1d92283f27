// Copies a text to the clipboard and says so (or says to copy by hand when the browser refuses).
import { useState } from 'react';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [outcome, setOutcome] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('Copied.');
    } catch {
      setOutcome('The browser did not allow copying: select the text and copy it yourself.');
    }
  };
  return (
    <span className="row">
      <button type="button" className="secondary" onClick={copy}>
        {label}
      </button>
      <span role="status" className="muted">
        {outcome}
      </span>
    </span>
  );
}
