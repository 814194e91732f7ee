/** Picking files from disk: a button opens the browser's chooser, the files chosen go to a callback. */
import { useRef, type ReactNode, type Ref } from 'react';

interface InputProps {
  /** The files chosen (never none); the input is cleared so that the same file can be chosen again. */
  onFiles: (files: File[]) => void;
  testId?: string;
  multiple?: boolean;
  /** A folder picker: every file below the folder chosen, in the browser's order. */
  folder?: boolean;
  accept?: string;
  label?: string;
}

/** A hidden file input, opened by a button of the page (`ref.current.click()`) that carries the words. */
export function HiddenFileInput({
  ref,
  onFiles,
  testId,
  multiple,
  folder,
  accept,
  label,
}: InputProps & { ref: Ref<HTMLInputElement> }) {
  return (
    <input
      ref={ref}
      type="file"
      hidden
      multiple={multiple}
      accept={accept}
      aria-label={label}
      data-testid={testId}
      {...(folder ? { webkitdirectory: '' } : {})}
      onChange={(e) => {
        const files = Array.from(e.target.files ?? []);
        e.target.value = '';
        if (files.length > 0) onFiles(files);
      }}
    />
  );
}

/** A button that opens the browser's file chooser; the files chosen go to `onFiles`. */
export function FileButton({
  children,
  disabled,
  className,
  ...input
}: InputProps & { children: ReactNode; disabled?: boolean; className?: string }) {
  const ref = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => ref.current?.click()}>
        {children}
      </button>
      <HiddenFileInput ref={ref} {...input} />
    </>
  );
}
