import assert from 'node:assert/strict';
import { parseHopSpec, resolveSshTarget } from '../../../../../src/core/hpc/ssh/sshConfig';

const config = `
Host hpc
  HostName login.hpc.example.org
  Port 2200
  User alice
  IdentityFile ~/.ssh/id_hpc
  IdentityFile %d/.ssh/%r@%h
  ProxyJump gw
Host gw
  HostName gateway.example.org
  User bob
  ProxyJump bastion:2022
Host bastion
  HostName bastion.example.org
  ServerAliveInterval 5
Host loop1
  ProxyJump loop2
Host loop2
  ProxyJump loop1
Host *
  UserKnownHostsFile ~/.ssh/known_hosts ~/.ssh/known_hosts2
`;
const source = { text: config, file: 'config', home: '/home/me', localUser: 'me' };

describe('ssh config resolution', () => {
  it('resolves a Host alias: HostName, Port, User, IdentityFile tokens and known_hosts files', () => {
    const t = resolveSshTarget({ sshHost: 'hpc' }, source);
    assert.equal(t.host, 'login.hpc.example.org');
    assert.equal(t.port, 2200);
    assert.equal(t.user, 'alice');
    assert.deepEqual(t.identityFiles, ['/home/me/.ssh/id_hpc', '/home/me/.ssh/alice@login.hpc.example.org']);
    assert.deepEqual(t.knownHostsFiles, ['/home/me/.ssh/known_hosts', '/home/me/.ssh/known_hosts2']);
  });

  it('builds the ProxyJump chain outermost first, each hop resolved through the config', () => {
    const t = resolveSshTarget({ sshHost: 'hpc' }, source);
    assert.deepEqual(
      t.jumps.map((j) => [j.alias, j.host, j.port, j.user]),
      [
        ['bastion:2022', 'bastion.example.org', 2022, 'me'],
        ['gw', 'gateway.example.org', 22, 'bob'],
      ],
    );
    assert.equal(t.jumps[0]!.keepaliveSeconds, 5);
  });

  it('lets the profile override port, user and key; an unknown name is used as the host', () => {
    const t = resolveSshTarget({ sshHost: 'node7.example.org', port: 2222, user: 'carol', identityFile: '/keys/k' }, source);
    assert.deepEqual([t.host, t.port, t.user, t.identityFiles, t.jumps], ['node7.example.org', 2222, 'carol', ['/keys/k'], []]);
  });

  it('refuses a ProxyJump loop and unreadable hop specs with a fix', () => {
    assert.throws(() => resolveSshTarget({ sshHost: 'loop1' }, source), /loops back/);
    assert.deepEqual(parseHopSpec('u@h:23'), { host: 'h', user: 'u', port: 23 });
    assert.deepEqual(parseHopSpec('[::1]:2200'), { host: '::1', port: 2200 });
    assert.throws(() => resolveSshTarget({ sshHost: 'x', port: 70000 }, source), /not a port number/);
  });
});
