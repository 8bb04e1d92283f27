// Dialogs on Radix: focus moves into the dialog, stays there, and returns to the button that opened it; Escape closes.
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

export function Dialog({
  opener,
  title,
  description,
  open,
  onOpenChange,
  children,
}: {
  /** The label of the button that opens the dialog. */
  opener: string;
  title: string;
  description: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Trigger asChild>
        <button type="button" className="secondary">
          {opener}
        </button>
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className="dialog-content">
          <RadixDialog.Title asChild>
            <h2>{title}</h2>
          </RadixDialog.Title>
          <RadixDialog.Description className="muted">{description}</RadixDialog.Description>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A button that closes the dialog it is in. */
export function DialogClose({ children }: { children: ReactNode }) {
  return (
    <RadixDialog.Close asChild>
      <button type="button" className="secondary">
        {children}
      </button>
    </RadixDialog.Close>
  );
}
