// A first run as a practitioner meets it, in the workbench: the Get Started walkthrough, a
// shared canvas that asks to approve everything by policy (refused, and said so in the cell),
// and a study on the SLURM test cluster (sshd on 127.0.0.1:2222) whose login, scheduler
// commands and job transitions are in the DREAMS log, with the connection test's report.
// About 2–3 minutes, most of it the cluster's pw.x jobs (lean settings, a second each).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { makeTestCluster, type TestCluster } from '../cluster/hpc/clusterFixture';
import { PROJECT_ROOT, startVsCodeHost, type VsCodeHost } from '../harness/vscodeHost';
import { notebookOutputFrame, runCommand, runObjectiveCell, visibleNotebook } from '../harness/workbench';
import { looseSearchObjective } from '../fixtures/adsorption/looseSearch';

const LOOSE_SEARCH = looseSearchObjective({
  objective: 'CO on Pt(111), quick look (EMT, loose forces), approved by policy',
  maxRelaxations: 2,
  run: '{ approval: auto-approve }',
});

/** fcc Al on the cluster at lean settings: every pw.x run is a SLURM job of about a second. */
const ON_THE_CLUSTER = `workflow: lattice-constant
objective: Lattice constant of fcc Al with LDA on the test cluster (lean settings)
inputs:
  element: Al
  structure: fcc
  latticeConstantAngstrom: 4.05
  functional: PZ
  pseudopotential: Al.pz-vbc.UPF
  cutoffsRy: [24, 28, 32]
  kSpacingsPerAngstrom: [0.5, 0.3, 0.2]
  toleranceMevPerAtom: 5
  smearing: { kind: mv, degaussRy: 0.05 }
  eos: { points: 5, rangePercent: 5 }
run: { backend: testcluster }`;

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

/** The DREAMS log channel's file, as VS Code writes it (in the host's log folder). */
function dreamsLogText(runDir: string): string {
  // (only the logs folder: the host's extensions folder links to the whole project)
  const logs = path.join(runDir, 'ud/logs');
  const found = fs
    .readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((f) => /(^|\/)dreams-dft\.dreams-vscode\/DREAMS\.log$/.test(f));
  assert.ok(found.length, `no DREAMS.log under ${logs}`);
  return found.map((f) => fs.readFileSync(path.join(logs, f), 'utf8')).join('\n');
}

describe('first run: walkthrough, a canvas that cannot loosen the approval policy, and the DREAMS log of a cluster run (e2e)', function () {
  let host: VsCodeHost;
  let cluster: TestCluster;
  const workspace = path.join(PROJECT_ROOT, 'test-results/e2e-workspace-first-run');

  before(async () => {
    if (!(await reachable(2222))) throw new Error('no test cluster answers on 127.0.0.1:2222: start it with  sudo npm run setup:cluster');
    cluster = makeTestCluster();
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.mkdirSync(workspace, { recursive: true });
    const canvas = (name: string, text: string) =>
      fs.writeFileSync(
        path.join(workspace, `${name}.dreams`),
        JSON.stringify({ dreams: 1, cells: [{ kind: 'objective', id: 'objective-1', text }] }) + '\n',
      );
    canvas('shared-search', LOOSE_SEARCH);
    canvas('on-the-cluster', ON_THE_CLUSTER);
    host = await startVsCodeHost({
      workspace,
      extension: 'installed',
      label: 'e2e-first-run',
      viewport: { width: 1600, height: 1000 },
      settings: { 'dreams.provider': 'offline', 'dreams.approvalPolicy': 'wait' },
      // cluster profiles are machine settings: the remote (server-side) settings of this window
      machineSettings: { 'dreams.clusters': [cluster.profile()] },
    });
    // the profile's sshHost "cluster" is an alias of the user's ~/.ssh/config (HOME is the host's own)
    const ssh = path.join(host.runDir, 'home/.ssh');
    fs.mkdirSync(ssh, { recursive: true, mode: 0o700 });
    fs.copyFileSync(cluster.sshConfigFile, path.join(ssh, 'config'));
  });
  after(async () => {
    await host?.stop();
    cluster?.cleanup();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await host?.screenshot(`e2e-failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  it('the Get Started walkthrough checks pw.x and lists what a first run needs', async () => {
    const { page } = host;
    await runCommand(page, 'DREAMS: Get Started');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Get started with DREAMS').first().waitFor({ timeout: 30_000 });
    for (const step of [
      'Check pw.x',
      'Choose a pseudopotential folder',
      'Set an API key, or choose offline',
      'Create and run the demo canvas',
      'Add a cluster profile',
    ]) {
      await walkthrough.getByText(step, { exact: true }).first().waitFor({ timeout: 10_000 });
    }
    // the step's button (its title is a button too)
    await walkthrough.locator('.monaco-button', { hasText: 'Check pw.x' }).first().click();
    // the step is checked off: its completion event is the dreams.pwFound context key, set only when pw.x printed its version
    const done = walkthrough.locator('.getting-started-step[aria-checked="true"]');
    await done.filter({ hasText: 'Check pw.x' }).waitFor({ timeout: 60_000 });
    assert.equal(await done.count(), 1, 'only the pw.x step is done');
    // the install command is drawn as code, not between literal backticks (a walkthrough step reads ``code``)
    const pwStep = (await done.filter({ hasText: 'Check pw.x' }).innerText()).replace(/\s+/g, ' ');
    assert.match(pwStep, /sudo apt-get install -y --no-install-recommends quantum-espresso quantum-espresso-data/);
    assert.ok(!pwStep.includes('`'), `a backtick shows in the step: ${pwStep}`);
    await host.screenshot('e2e-walkthrough');
  });

  it("refuses a shared canvas's run.approval: auto-approve under the user's wait, and says so at the top of the cell", async function () {
    this.timeout(180_000);
    const { page } = host;
    await runObjectiveCell(page, 'shared-search.dreams', 'workflow: adsorption-search');
    const out = notebookOutputFrame(page);
    await out
      .getByText(/run\.approval: auto-approve was ignored/)
      .first()
      .waitFor({ timeout: 90_000 });
    await out
      .getByText(/\[waiting-approval\]/)
      .first()
      .waitFor({ timeout: 90_000 });
    await host.screenshot('e2e-loosening-refused');
    // the run waits for a person, not for the canvas's policy: nothing was approved by policy
    // (the run's link reaches the file when the workbench saves the notebook, which can be seconds after
    // the cell shows the run at load 8-14: read until it is there)
    const linked = async (): Promise<string> => {
      for (const end = Date.now() + 60_000; Date.now() < end; await page.waitForTimeout(250)) {
        try {
          const canvas = JSON.parse(fs.readFileSync(path.join(workspace, 'shared-search.dreams'), 'utf8')) as { run?: { log: string } };
          if (canvas.run?.log) return canvas.run.log;
        } catch {
          // read mid-save: try again
        }
      }
      throw new Error('shared-search.dreams was not saved with its run within 60 s');
    };
    const log = fs.readFileSync(path.join(workspace, await linked()), 'utf8');
    assert.ok(log.includes('"approval.request"'), 'the loose search raised no warning');
    assert.ok(!log.includes('"by":"policy"'), 'a request was approved by policy');
    await runCommand(page, 'Notebook: Stop Execution');
    await visibleNotebook(page)
      .locator('.codicon-notebook-execute:visible, .codicon-notebook-state-error')
      .first()
      .waitFor({ timeout: 30_000 });
  });

  it('runs a study on the test cluster; the DREAMS log shows the login, scheduler commands with exit codes and job transitions; Test Cluster Connection reports host key, login and scheduler', async function () {
    this.timeout(600_000);
    const { page } = host;
    await runObjectiveCell(page, 'on-the-cluster.dreams', 'workflow: lattice-constant');
    await notebookOutputFrame(page)
      .getByText(/Run \S+: completed/)
      .waitFor({ timeout: 540_000 });
    await runCommand(page, 'Notifications: Clear All Notifications'); // (the run's completion toast would cover the log)
    await runCommand(page, 'DREAMS: Show Log');
    await runCommand(page, 'View: Toggle Maximized Panel');
    const panel = page.locator('.part.panel');
    // (Monaco shows spaces as no-break spaces: \s)
    await panel
      .getByText(/\[jobs\]\sjob\s\S+\s\(testcluster\s#\d+\):\s\S+\s→\scompleted/)
      .first()
      .waitFor({ timeout: 30_000 });
    await host.screenshot('e2e-log-channel');
    await runCommand(page, 'View: Toggle Maximized Panel');
    const log = dreamsLogText(host.runDir);
    assert.match(log, /\[info\] \[ssh testcluster\] connecting to testuser@127\.0\.0\.1:2222/);
    assert.match(
      log,
      /\[info\] \[ssh testcluster\] connected: logged in as testuser with key \S+id_ed25519; host key ssh-ed25519 SHA256:\S+ \(matches /,
    );
    assert.match(log, /\[info\] \[ssh testcluster\] \$ .*sbatch .*→ exit 0 \(\d+ ms\)/);
    assert.match(log, /\[info\] \[jobs\] job \S+ \(testcluster #\d+\): submitted → /);
    assert.match(log, /\[info\] run \S+ started from on-the-cluster\.dreams: backend testcluster/);
    assert.doesNotMatch(log, /sk-ant-|BEGIN OPENSSH PRIVATE KEY/);

    await runCommand(page, 'DREAMS: Test Cluster Connection');
    const report = page.locator('.notifications-toasts', { hasText: /testcluster: connected in/ });
    await report.waitFor({ timeout: 60_000 });
    const text = await report.innerText();
    assert.match(text, /Host key ssh-ed25519 SHA256:\S+ \(matches \S+known_hosts\)/);
    assert.match(text, /Logged in as testuser with key \S+id_ed25519/);
    assert.match(text, /Scheduler: slurm\S* \d+\.\d+/);
    await host.screenshot('e2e-test-connection');
  });
});
