import { LINE_FORMATS, type PageRecord } from '../core/types';
import { useDatasets } from '../state/datasets';
import { fmtInt } from './format';
import { selectedDataset } from '../state/selectors';

/**
 * Where the page was read: its file (one of the dataset's files when a crawl of many was read as one;
 * "crawl.wacz › archive/data.warc.gz" inside a WACZ), the byte offset or line there, and whether the
 * WACZ's page list names it.
 */
export function SourceOf({ page: p }: { page: PageRecord }) {
  // Two primitive slices: a selector that built an object would re-render on every store change.
  const source = (s: ReturnType<typeof useDatasets.getState>) => {
    const d = selectedDataset(s);
    return { d, src: d?.sources?.[p.source ?? 0] };
  };
  const name = useDatasets((s) => {
    const { d, src } = source(s);
    return src?.name ?? d?.fileName ?? '';
  });
  const format = useDatasets((s) => {
    const { d, src } = source(s);
    return src?.format ?? d?.format ?? null;
  });
  const file = { name, format };
  const where =
    p.offset < 0
      ? ''
      : file.format && LINE_FORMATS.has(file.format)
        ? ` · line ${fmtInt(p.offset)}`
        : ` · byte ${fmtInt(p.offset)}`;
  return (
    <>
      {file.name || '–'}
      {where}
      {p.listed !== undefined && (p.listed ? ' · in the WACZ page list' : ' · not in the WACZ page list')}
    </>
  );
}
