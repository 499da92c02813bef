import { useLayoutEffect, useRef, type ComponentProps, type RefObject } from 'react';
import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';

export function Dialog(props: ComponentProps<typeof DialogPrimitive.Root>) {
  return <DialogPrimitive.Root data-slot="dialog" {...props} />;
}

export function DialogTrigger(props: ComponentProps<typeof DialogPrimitive.Trigger>) {
  return <DialogPrimitive.Trigger data-slot="dialog-trigger" {...props} />;
}

export function DialogClose(props: ComponentProps<typeof DialogPrimitive.Close>) {
  return <DialogPrimitive.Close data-slot="dialog-close" {...props} />;
}

export function DialogOverlay({ className, ...props }: ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      data-slot="dialog-overlay"
      className={cn('fixed inset-0 z-50 bg-black/50 data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in', className)}
      {...props}
    />
  );
}

export interface DialogContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  /** Hide the corner close button (e.g. when the footer already has one). */
  showCloseButton?: boolean;
}

/** Notes the focused element when the content opens, before the dialog moves focus into itself. */
function NoteOpener({ openerRef }: { openerRef: RefObject<Element | null> }) {
  useLayoutEffect(() => {
    openerRef.current = document.activeElement;
  }, [openerRef]);
  return null;
}

/**
 * Below 768 px a dialog is a full-screen sheet (docs/decisions/054-phone-layout.md): a centred box leaves a thumb-width
 * margin on a 390 px phone and makes a long form scroll inside a small frame. `!` so a caller's width or height
 * classes (`sm:max-w-3xl`, `max-h-[90vh]`) keep their meaning on wider screens only.
 */
const PHONE_SHEET_CLASS =
  'max-md:inset-0! max-md:h-dvh! max-md:max-h-none! max-md:w-full! max-md:max-w-none! max-md:translate-x-0! max-md:translate-y-0! max-md:content-start max-md:rounded-none! max-md:border-0! max-md:px-4 max-md:pt-5 max-md:pb-[max(1.25rem,env(safe-area-inset-bottom))]';

export function DialogContent({ className, children, showCloseButton = true, onCloseAutoFocus, ...props }: DialogContentProps) {
  const { t } = useTranslation('ui');
  // Radix returns focus to its Trigger; a dialog opened by a plain button (a row action, a controlled `open`) would
  // leave keyboard users on <body>, so focus goes back to whatever opened it.
  const openerRef = useRef<Element | null>(null);
  return (
    <DialogPrimitive.Portal data-slot="dialog-portal">
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-full max-w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border bg-card p-6 text-card-foreground shadow-lg outline-none data-[state=closed]:animate-scale-out data-[state=open]:animate-scale-in sm:max-w-lg',
          PHONE_SHEET_CLASS,
          className,
        )}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const el = openerRef.current;
          if (!event.defaultPrevented && el instanceof HTMLElement && el.isConnected && el !== document.body) {
            event.preventDefault();
            el.focus();
          }
        }}
        {...props}
      >
        <NoteOpener openerRef={openerRef} />
        {children}
        {showCloseButton && (
          <DialogPrimitive.Close
            data-slot="dialog-close"
            className="absolute top-4 right-4 rounded-sm opacity-70 transition-opacity outline-none hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none max-md:top-2 max-md:right-2 max-md:flex max-md:size-11 max-md:items-center max-md:justify-center [&_svg]:size-4"
          >
            <X aria-hidden />
            <span className="sr-only">{t('close')}</span>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="dialog-header" className={cn('flex flex-col gap-2 text-left max-md:pr-8', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div data-slot="dialog-footer" className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title data-slot="dialog-title" className={cn('text-lg leading-none font-semibold', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description data-slot="dialog-description" className={cn('text-sm text-muted-foreground', className)} {...props} />
  );
}
