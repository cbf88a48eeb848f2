// The page's two repeated pieces of markup: a table of rows with a heading per column, and a select's options.
import type { ComponentChildren } from 'preact';

/** A column: its heading and what its cell shows for a row. */
export type Column<T> = readonly [heading: string, cell: (row: T) => ComponentChildren];

/** A table with a caption, one column per `columns` entry and one row per item of `rows`. */
export function Table<T>(props: {
  caption: ComponentChildren;
  columns: readonly Column<T>[];
  rows: readonly T[];
  keyOf(row: T): string | number;
}) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map(([heading]) => (
            <th key={heading} scope="col">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={props.keyOf(row)}>
            {props.columns.map(([heading, cell]) => (
              <td key={heading}>{cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A select's options, each showing its value. */
export function Options({ values }: { values: readonly string[] }) {
  return (
    <>
      {values.map((value) => (
        <option key={value} value={value}>
          {value}
        </option>
      ))}
    </>
  );
}
