import { useState } from 'preact/hooks';
import { ApiError, errorText, type ResponseOf, type Workspace } from '../api.js';
import { FormError } from '../components/field.js';
import { csrfHeader } from '../session.js';

type ImportReport = ResponseOf<'importLinks'>;

/** The report as `linkforge import` prints it, line for line. */
export function reportText(report: ImportReport): string {
  const lines = [
    `${report.dry_run ? 'Dry run (nothing written): ' : ''}${report.rows} rows read as ${report.format}`,
    `  created:  ${report.created}`,
    `  existing: ${report.existing}`,
    `  rejected: ${report.rejected}`,
  ];
  for (const r of report.rejections) lines.push(`    row ${r.row}${r.code ? ` (${r.code})` : ''}: ${r.reason}: ${r.detail}`);
  if (report.rejected > report.rejections.length) lines.push(`    … and ${report.rejected - report.rejections.length} more`);
  return lines.join('\n');
}

type Progress = { phase: 'uploading'; sent: number; size: number } | { phase: 'importing' };

/** XMLHttpRequest because fetch cannot report how much of an upload has been sent. */
function upload(workspaceId: number, file: File, dryRun: boolean, onProgress: (progress: Progress) => void): Promise<ImportReport> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/v1/workspaces/${workspaceId}/imports${dryRun ? '?dry_run=true' : ''}`);
    request.setRequestHeader('accept', 'application/json');
    for (const [name, value] of Object.entries(csrfHeader())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress({ phase: 'uploading', sent: event.loaded, size: event.total || file.size });
    request.upload.onload = () => onProgress({ phase: 'importing' });
    request.onerror = () => reject(new ApiError({ status: 0, title: 'Network error', detail: 'The server cannot be reached; check your connection and try again.', code: 'network_error' }));
    request.onload = () => {
      let body: Partial<ImportReport & { title: string; detail: string; code: string }> = {};
      try { body = JSON.parse(request.responseText); } catch { /* a non-JSON answer is reported by its status */ }
      if (request.status === 200) resolve(body as ImportReport);
      else reject(new ApiError({ status: request.status, title: body.title ?? request.statusText, detail: body.detail ?? `The server answered ${request.status}.`, code: body.code ?? 'unknown' }));
    };
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}

/** Import a Linkforge, Bitly, Shlink, Kutt or YOURLS export into a workspace the user owns or administers. */
export function ImportPanel({ workspaces, workspaceId, onImported }: { workspaces: Workspace[]; workspaceId?: number; onImported: () => void }) {
  const allowed = workspaces.filter((w) => w.role !== 'member');
  const [target, setTarget] = useState<string>();
  const [file, setFile] = useState<File>();
  const [dryRun, setDryRun] = useState(false);
  const [progress, setProgress] = useState<Progress>();
  const [report, setReport] = useState<string>();
  const [error, setError] = useState<string>();
  const chosen = target ?? String(allowed.find((w) => w.id === workspaceId)?.id ?? allowed[0]?.id ?? '');
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setReport(undefined);
    if (!file) { setError('Choose the file to import.'); return; }
    try {
      setProgress({ phase: 'uploading', sent: 0, size: file.size });
      const answer = await upload(Number(chosen), file, dryRun, setProgress);
      setReport(reportText(answer));
      if (!answer.dry_run) onImported();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setProgress(undefined);
    }
  };
  if (allowed.length === 0) return null;
  return (
    <details class="card import">
      <summary>Import links</summary>
      <form onSubmit={submit} noValidate aria-busy={progress !== undefined}>
        <p class="muted small">A Linkforge, Bitly, Shlink, Kutt or YOURLS export (CSV or JSON). Each link keeps its short code; importing a file twice creates nothing new.</p>
        <div class="field">
          <label for="import-workspace">Into workspace</label>
          <select id="import-workspace" value={chosen} onChange={(e) => setTarget(e.currentTarget.value)}>
            {allowed.map((w) => <option key={w.id} value={String(w.id)}>{w.is_personal ? 'Personal' : w.name}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="import-file">Export file</label>
          <input id="import-file" type="file" accept=".csv,.json,.jsonl,text/csv,application/json" onChange={(e) => setFile(e.currentTarget.files?.[0])} />
        </div>
        <div class="field inline">
          <input id="import-dry-run" type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.currentTarget.checked)} />
          <label for="import-dry-run">Dry run: report only, write nothing</label>
        </div>
        <FormError message={error} />
        <button type="submit" disabled={progress !== undefined}>Import</button>
        {progress && (
          <div class="import-progress" role="status">
            {progress.phase === 'uploading'
              ? <><label for="import-bar">Uploading</label> <progress id="import-bar" max={progress.size || 1} value={progress.sent} /> {Math.round((progress.sent / (progress.size || 1)) * 100)} %</>
              : <><label for="import-bar">Importing</label> <progress id="import-bar" /></>}
          </div>
        )}
      </form>
      {report && <section aria-labelledby="import-report-heading"><h3 id="import-report-heading">Import report</h3><pre class="import-report" role="status">{report}</pre></section>}
    </details>
  );
}
