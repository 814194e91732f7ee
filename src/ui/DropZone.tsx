import { useEffect, useState, type ReactNode } from 'react';
import { useDatasets } from '../state/datasets';

/** A file with the path it had in the dropped folder ('' for a file dropped on its own). */
interface Found {
  file: File;
  path: string;
}

/** Every entry of a directory: readEntries gives them in batches (Chromium: 100) until an empty one. */
async function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** The files under an entry, folders read recursively. */
async function filesOf(entry: FileSystemEntry, out: Found[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((ok, fail) => (entry as FileSystemFileEntry).file(ok, fail));
    out.push({ file, path: entry.fullPath });
  } else if (entry.isDirectory) {
    for (const child of await readAll(entry as FileSystemDirectoryEntry)) await filesOf(child, out);
  }
}

/**
 * What a drop holds: files, and the files of dropped folders, in path order (a crawl's WARCs are
 * numbered: crawl-00001.warc.gz, crawl-00002.warc.gz…). The name is the folder's when one folder was
 * dropped. Entries must be taken during the drop event; reading them may come after.
 */
export function droppedCrawl(dt: DataTransfer): Promise<{ files: File[]; name?: string }> {
  const items = Array.from(dt.items ?? []).filter((i) => i.kind === 'file');
  const entries = items.map((i) => i.webkitGetAsEntry?.() ?? null);
  const plain = items.map((i) => i.getAsFile());
  const fallback = Array.from(dt.files ?? []);
  return (async () => {
    if (items.length === 0) return { files: fallback };
    const found: Found[] = [];
    for (let k = 0; k < items.length; k++) {
      const entry = entries[k];
      // A DataTransfer made by a script has no file system entries: its files are taken as they are.
      if (entry) await filesOf(entry, found);
      else if (plain[k]) found.push({ file: plain[k]!, path: '' });
    }
    const folders = entries.filter((e) => e?.isDirectory);
    if (folders.length > 0) found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return {
      files: found.map((f) => f.file),
      name: folders.length === 1 && entries.length === 1 ? folders[0]!.name : undefined,
    };
  })();
}

/** The whole window accepts dropped files and folders; everything dropped at once is one crawl. */
export function DropZone({ children }: { children: ReactNode }) {
  const ingestFiles = useDatasets((s) => s.ingestFiles);
  const [over, setOver] = useState(false);

  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      depth = 0;
      setOver(false);
      if (!e.dataTransfer) return;
      const crawl = droppedCrawl(e.dataTransfer);
      void crawl.then(({ files, name }) => ingestFiles(files, name));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, [ingestFiles]);

  return (
    <>
      {children}
      {over && (
        <div className="drop-overlay" role="status">
          Drop the crawl: its files or its folder are read as one dataset
        </div>
      )}
    </>
  );
}
