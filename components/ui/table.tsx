import type { ReactNode } from "react";

export type TColumn<R> = { key: string; header: ReactNode; cell: (row: R) => ReactNode; className?: string };

type TTableProps<R> = {
  caption: ReactNode;
  columns: TColumn<R>[];
  rows: R[];
  rowKey: (row: R) => string;
};

/** A plain data table; the caption is for assistive tools and hidden visually. */
export function Table<R>({ caption, columns, rows, rowKey }: TTableProps<R>) {
  return (
    <div className="ui-table-wrap">
      <table className="ui-table">
        <caption className="ui-visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} className={c.className}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
