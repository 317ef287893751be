/** A multipart/form-data body with one file part, as a browser or `curl -F file=@…` sends it. */
export function multipartFile(content: string | Buffer, options: { field?: string; filename?: string } = {}): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----linkforge-test-${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'links.csv'}"\r\nContent-Type: text/csv\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
