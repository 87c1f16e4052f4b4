import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { Button } from './button';

/** A modal dialog (radix Dialog: focus trap, Escape closes, labelled by its title). */
export function Modal(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={`dialog-content${props.wide ? ' dialog-wide' : ''}`} aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">{props.title}</Dialog.Title>
          <div className="dialog-body">{props.children}</div>
          {props.footer && <div className="dialog-footer">{props.footer}</div>}
          <Dialog.Close className="dialog-x" aria-label="Close">
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** "Are you sure…?" with a destructive confirm button and Cancel. */
export function ConfirmDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  message: ReactNode;
  confirmLabel?: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  return (
    <Modal
      open={props.open}
      onOpenChange={props.onOpenChange}
      title="Please confirm"
      footer={
        <>
          <Button variant="danger" onClick={props.onConfirm} disabled={props.busy}>
            {props.confirmLabel ?? 'Delete'}
          </Button>
          <Button variant="ghost" onClick={() => props.onOpenChange(false)}>
            Cancel
          </Button>
        </>
      }
    >
      <p>{props.message}</p>
    </Modal>
  );
}
