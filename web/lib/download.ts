export function saveBlob(filename: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Saves text as a file (no server round trip); a BOM first, so spreadsheets read UTF-8. */
export function download(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  saveBlob(filename, new Blob(['\ufeff', text], { type }));
}
