import { buildProfile } from '../../core/profile';
import { urlOverrides } from '../../core/clusters/override-urls';
import { useOverrides } from '../../state/overrides';
import { classNames } from '../../core/dust/representatives';
import { useAnalysis } from '../../state/analysis';
import { useDatasets } from '../../state/datasets';
import { useDust } from '../../state/dust';
import { download } from '../download';
import { exportFileName, exportSource, jsonText, methodTags, shellWord } from '../exports';
import { selectedDataset } from '../../state/selectors';

/**
 * "Export dedup profile": the shown analysis's parameters, method, thresholds and clustering, and the
 * valid DUST rules, as the JSON `npm run batch --profile` reads (src/core/profile.ts).
 */
export function ExportProfileButton() {
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const thresholds = useAnalysis((s) => s.thresholds);
  const mode = useAnalysis((s) => s.mode);
  const keep = useAnalysis((s) => s.keep);
  const losesText = useAnalysis((s) => s.losesText);
  const removeLosing = useAnalysis((s) => s.removeLosing);
  const dustRun = useDust((d) => d.run);
  const decisions = useOverrides((s) => s.rows);
  const selectedId = useDatasets((s) => s.selectedId);
  const datasets = useDatasets((s) => s.datasets);
  if (!analysis) return null;
  const ds = selectedDataset({ datasets, selectedId });
  const profileName = exportFileName([...methodTags(method, thresholds), mode], 'dedup-profile', 'json');
  // The crawl's own files (a WACZ's WARCs are read from the WACZ itself), each once.
  const files = [
    ...new Set(
      (ds?.sources?.length ? ds.sources.map((x) => x.name.split(' › ')[0]) : [ds?.fileName ?? '']).filter(
        Boolean,
      ),
    ),
  ];
  const exportProfile = () => {
    const profile = buildProfile({
      dataset: ds?.name ?? '',
      pages: analysis.n,
      method,
      thresholds,
      clustering: mode,
      keep,
      losesText,
      removeLosing,
      engine: analysis.params,
      overrides: urlOverrides(decisions.values()),
      dust: dustRun
        ? {
            site: dustRun.params.site,
            maxIterations: dustRun.params.maxIterations,
            rules: dustRun.rules,
            names: classNames(dustRun.canonical, new Map(dustRun.ruleForm ?? [])),
          }
        : null,
    });
    // The profile is its parameters; its source adds the app's version and when it was exported.
    const { app, version, exported } = exportSource({});
    download(
      profileName,
      'application/json',
      jsonText({ ...profile, source: { ...profile.source, app, version, exported } }),
    );
  };
  return (
    <>
      <button
        type="button"
        onClick={exportProfile}
        title="The method, thresholds, signature parameters, kept-copy policy and valid DUST rules, for npm run batch over a whole crawl"
      >
        Export dedup profile
      </button>
      <span className="meta batch-command">
        {' '}
        then, in the folder holding the profile and the crawl (inside the project, or with{' '}
        <code>npm --prefix PROJECT</code>):{' '}
        <code data-testid="profile-batch-command">
          npm run batch -- --profile {shellWord(profileName)} --out result/ {files.map(shellWord).join(' ')}
        </code>
      </span>
    </>
  );
}
