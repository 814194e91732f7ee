import { useEffect, useState, type ReactNode } from 'react';
import { useDatasets } from '../state/datasets';

/** The whole window accepts dropped files; one dataset per file. */
export function DropZone({ children }: { children: ReactNode }) {
  const ingestFile = useDatasets((s) => s.ingestFile);
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
      const files = Array.from(e.dataTransfer?.files ?? []);
      void (async () => {
        for (const f of files) await ingestFile(f);
      })();
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
  }, [ingestFile]);

  return (
    <>
      {children}
      {over && (
        <div className="drop-overlay" role="status">
          Drop to read the crawl file
        </div>
      )}
    </>
  );
}
