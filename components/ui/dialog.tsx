"use client";
import { useEffect, useId, useRef, type ReactNode } from "react";

type TDialogProps = {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** False where closing by Escape would lose something that cannot be shown again. */
  dismissible?: boolean;
  wide?: boolean;
};

/**
 * A modal on the native <dialog>: the browser provides the top layer, focus containment and the
 * inert background. Content is rendered only while open, so nothing lingers in the DOM afterwards.
 */
export function Dialog({ open, title, onClose, children, footer, dismissible = true, wide = false }: TDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`ui-dialog${wide ? " ui-dialog--wide" : ""}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        if (dismissible) onClose();
      }}
    >
      {open ? (
        <div className="ui-dialog__frame">
          <h2 id={titleId} className="ui-dialog__title">
            {title}
          </h2>
          <div className="ui-dialog__body">{children}</div>
          {footer ? <div className="ui-dialog__footer">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
