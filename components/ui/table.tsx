import type { ReactNode } from "react";

/**
 * `sort`: the column can order the table; its header then holds a SortHeader and tells assistive
 * tools the state through aria-sort ("none" on the sortable columns that do not order it now).
 */
export type TColumn<R> = { key: string; header: ReactNode; cell: (row: R) => ReactNode; className?: string; sort?: "ascending" | "descending" | "none" };

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
              <th key={c.key} scope="col" className={c.className} aria-sort={c.sort}>
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
