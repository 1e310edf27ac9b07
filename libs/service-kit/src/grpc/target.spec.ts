import { describe, expect, it } from '@jest/globals';
import { ConfigError, env, loadConfig } from '../config/config.js';
import { isGrpcTarget } from './target.js';

describe('isGrpcTarget', () => {
  it('takes host:port, dns:///<name>:<port> and ipv4:<ip>:<port>,<ip>:<port>', () => {
    for (const target of [
      '127.0.0.1:50051',
      'identity:50051',
      'identity.clipit.svc.cluster.local:50051',
      'dns:///identity-grpc:50051',
      'dns:///identity-grpc.clipit.svc.cluster.local:50051',
      'ipv4:127.0.0.1:50051',
      'ipv4:127.0.0.1:50051,127.0.0.1:50061',
      'ipv4:10.0.0.1:1,10.0.0.2:65535,10.0.0.3:50051',
    ]) {
      expect([target, isGrpcTarget(target)]).toEqual([target, true]);
    }
  });

  it('refuses anything else', () => {
    for (const target of [
      '',
      'identity',
      ':50051',
      'identity:',
      'identity:0',
      'identity:65536',
      'http://identity:50051',
      'identity:50051/',
      'dns:identity:50051',
      'dns://8.8.8.8/identity:50051',
      'dns:///identity',
      'dns:50051',
      'ipv4:50051',
      'ipv4:',
      'ipv4:127.0.0.1',
      'ipv4:127.0.0.1:50051,',
      'ipv4:127.0.0.1:50051, 127.0.0.1:50061',
      'ipv4:256.0.0.1:50051',
      'ipv4:identity:50051',
      'ipv6:[::1]:50051',
      'unix:/tmp/identity.sock',
      '127.0.0.1:50051,127.0.0.1:50061',
    ]) {
      expect([target, isGrpcTarget(target)]).toEqual([target, false]);
    }
  });
});

describe('env.grpcTarget', () => {
  const shape = { IDENTITY_GRPC_URL: env.grpcTarget('127.0.0.1:50051') };

  it('reads every form, and its default when unset', () => {
    expect(loadConfig(shape, {})).toEqual({ IDENTITY_GRPC_URL: '127.0.0.1:50051' });
    expect(loadConfig(shape, { IDENTITY_GRPC_URL: 'dns:///identity-grpc:50051' }).IDENTITY_GRPC_URL).toBe('dns:///identity-grpc:50051');
    expect(loadConfig(shape, { IDENTITY_GRPC_URL: 'ipv4:127.0.0.1:1,127.0.0.1:2' }).IDENTITY_GRPC_URL).toBe('ipv4:127.0.0.1:1,127.0.0.1:2');
  });

  it('stops start-up on another form, naming the variable and the forms it takes', () => {
    let error: unknown;
    try {
      loadConfig(shape, { IDENTITY_GRPC_URL: 'http://identity:50051' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'IDENTITY_GRPC_URL="http://identity:50051" is invalid: must be host:port, dns:///<name>:<port> or ipv4:<ip>:<port>,<ip>:<port>',
    ]);
  });
});
