import { Popover } from 'radix-ui';
import type { RefObject } from 'react';
import { dayValue, parseDay } from '../../lib/format';
import { Calendar } from './calendar';

/**
 * A date field's calendar, beside its button (date-input.tsx): its own chunk with radix Popover and
 * react-day-picker, so a screen with a date field loads them when the calendar is first opened.
 */
export default function CalendarPopover({
  anchor,
  value,
  min,
  max,
  onPick,
  onClose,
}: {
  anchor: RefObject<HTMLButtonElement | null>;
  value: string;
  min?: string;
  max?: string;
  onPick: (day: string) => void;
  onClose: () => void;
}) {
  const selected = parseDay(value);
  const from = min ? parseDay(min) : undefined;
  const to = max ? parseDay(max) : undefined;
  return (
    <Popover.Root open onOpenChange={(open) => !open && onClose()}>
      <Popover.Anchor virtualRef={anchor} />
      <Popover.Portal>
        <Popover.Content
          className="calendar-popover"
          align="start"
          sideOffset={6}
          // the button toggles the calendar itself: a press on it is not a press outside
          onPointerDownOutside={(e) => anchor.current?.contains(e.target as Node) && e.preventDefault()}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            anchor.current?.focus();
          }}
        >
          <Calendar
            mode="single"
            selected={selected}
            defaultMonth={selected ?? to}
            disabled={[...(from ? [{ before: from }] : []), ...(to ? [{ after: to }] : [])]}
            onSelect={(day) => {
              if (!day) return;
              onPick(dayValue(day));
              onClose();
            }}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
