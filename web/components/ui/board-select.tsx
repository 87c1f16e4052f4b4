import { BOARD_NAMES, LOAD_BOARDS, type LoadBoard } from '../../../worker/history/boards';

export function BoardSelect(props: { label: string; allLabel: string; value: LoadBoard | ''; onChange: (board: LoadBoard | '') => void; className: string }) {
  return (
    <label className={props.className}>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value as LoadBoard | '')}>
        <option value="">{props.allLabel}</option>
        {LOAD_BOARDS.map((b) => (
          <option key={b} value={b}>
            {BOARD_NAMES[b]}
          </option>
        ))}
      </select>
    </label>
  );
}
