import { useMemo } from 'react';
import { DateLib, type DateLibOptions, DayPicker, type DayPickerProps, type Labels, type Modifiers } from 'react-day-picker';
import { enUS, hy, ru } from 'react-day-picker/locale';
import { useTranslation } from 'react-i18next';
import 'react-day-picker/style.css';
import './calendar.css';

/** The month and day names of each language (date-fns' own, so Armenian needs no Intl data). */
const LOCALES = { en: enUS, ru, hy } as const;

/**
 * react-day-picker in the screen's language: month and day names from the language's locale, and
 * every label it reads out (the arrows, each day's "today", "selected") from the catalogue; its
 * own labels are English (docs/decisions/0178-no-english-left.md).
 */
export function Calendar(props: DayPickerProps) {
  const { t, i18n } = useTranslation();
  const labels = useMemo<Partial<Labels>>(() => {
    const day = (date: Date, options?: DateLibOptions, dateLib?: DateLib) => (dateLib ?? new DateLib(options)).format(date, 'PPPP');
    const dayLabel = (date: Date, modifiers: Modifiers | undefined, options?: DateLibOptions, dateLib?: DateLib) => {
      const name = modifiers?.today ? t('common.calendar.today', { day: day(date, options, dateLib) }) : day(date, options, dateLib);
      return modifiers?.selected ? t('common.calendar.selected', { day: name }) : name;
    };
    return {
      labelNext: () => t('common.calendar.next'),
      labelPrevious: () => t('common.calendar.previous'),
      labelNav: () => t('common.calendar.nav'),
      labelMonthDropdown: () => t('common.calendar.month'),
      labelYearDropdown: () => t('common.calendar.year'),
      labelWeekNumber: (week: number) => t('common.calendar.week', { week }),
      labelWeekNumberHeader: () => t('common.calendar.weekNumber'),
      labelDayButton: dayLabel,
      labelGridcell: (date, modifiers, options, dateLib) => dayLabel(date, modifiers && { ...modifiers, selected: false }, options, dateLib),
    };
  }, [t]);
  return <DayPicker weekStartsOn={1} {...props} locale={LOCALES[i18n.language as keyof typeof LOCALES] ?? enUS} labels={labels} />;
}
