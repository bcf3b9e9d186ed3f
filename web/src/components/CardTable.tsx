// A table that becomes a stack of cards on a phone (issue 31): below Mantine's `sm` breakpoint each row
// is a card and each cell a line "Column: value", so no column is hidden behind a horizontal scroll and
// no badge is squeezed to "ACTI…". The tables keep their ordinary <Table> markup; the column names are
// copied from the header onto each cell (data-label, shown by card-table.css) here, once per render and
// whenever rows change, rather than repeated by hand in every cell of every table.
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Table } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import './card-table.css';

const PHONE_QUERY = '(max-width: 47.99em)';

function labelCells(root: HTMLElement): void {
  for (const table of root.querySelectorAll('table')) {
    // A column whose name is only for screen readers (the actions) gets no visible label.
    const headers = [...table.querySelectorAll('thead th')].map((th) => (th.querySelector('.visually-hidden') ? '' : th.textContent?.trim() ?? ''));
    for (const row of table.querySelectorAll('tbody tr, tfoot tr')) {
      let column = 0;
      for (const cell of row.children) {
        const label = headers[column] ?? '';
        if (cell.getAttribute('data-label') !== label) cell.setAttribute('data-label', label);
        column += Number(cell.getAttribute('colspan') ?? 1);
      }
    }
  }
}

export function CardTable({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  const phone = useMediaQuery(PHONE_QUERY) ?? false;
  const root = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = root.current;
    if (!element || !phone) return;
    labelCells(element);
    const observer = new MutationObserver(() => labelCells(element));
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [phone]);
  return (
    <div ref={root} className={phone ? 'card-table' : undefined} data-layout={phone ? 'cards' : 'table'}>
      {phone ? children : <Table.ScrollContainer minWidth={minWidth}>{children}</Table.ScrollContainer>}
    </div>
  );
}
