import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../lib/config/load-config';

describe('config: OpenTelemetry settings', () => {
  it('leaves tracing off, with the documented defaults, when nothing is set', () => {
    const config = loadConfig({});
    assert.equal(config.otelEndpoint, undefined);
    assert.equal(config.otelExporter, 'http/protobuf');
    assert.equal(config.otelResourceName, 'gw');
    assert.equal(config.otelContextPropagation, 'tracecontext');
    assert.equal(config.otelSamplingType, 'AlwaysOn');
    assert.equal(config.otelSamplingParentBased, true);
    assert.equal(config.otelBatchSize, 512);
    assert.equal(config.otelQueueSize, 2048);
    assert.equal(config.otelTraceIdHeader, false);
  });

  it('reads the GW_OTEL_* variables', () => {
    const config = loadConfig({
      GW_OTEL_ENDPOINT: 'collector:4317',
      GW_OTEL_EXPORTER: 'grpc',
      GW_OTEL_HEADERS: 'x-api-key=abc%3D,tenant=t1',
      GW_OTEL_CONNECTION_TIMEOUT: '2.5',
      GW_OTEL_SAMPLING_TYPE: 'TraceIDRatioBased',
      GW_OTEL_SAMPLING_RATE: '0.25',
      GW_OTEL_SAMPLING_PARENT_BASED: 'false',
      GW_OTEL_CONTEXT_PROPAGATION: 'b3, tracecontext',
      GW_OTEL_BATCH_SIZE: '64',
      GW_OTEL_TRACE_ID_HEADER: 'true',
    });
    assert.equal(config.otelEndpoint, 'collector:4317');
    assert.equal(config.otelExporter, 'grpc');
    assert.equal(config.otelHeaders, 'x-api-key=abc%3D,tenant=t1');
    assert.equal(config.otelConnectionTimeout, 2.5);
    assert.equal(config.otelSamplingType, 'TraceIDRatioBased');
    assert.equal(config.otelSamplingRate, 0.25);
    assert.equal(config.otelSamplingParentBased, false);
    assert.equal(config.otelBatchSize, 64);
    assert.equal(config.otelTraceIdHeader, true);
  });

  it('honours the standard OTEL_* variables, milliseconds turned into seconds', () => {
    const config = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20t',
      OTEL_EXPORTER_OTLP_TIMEOUT: '1500',
      OTEL_SERVICE_NAME: 'edge-gw',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      OTEL_PROPAGATORS: 'tracecontext,baggage,b3multi',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_BSP_MAX_QUEUE_SIZE: '100',
    });
    // the general endpoint is a base address: the traces path is added, as the specification says
    assert.equal(config.otelEndpoint, 'http://collector:4318/v1/traces');
    assert.equal(config.otelExporter, 'http/json');
    assert.equal(config.otelHeaders, 'authorization=Bearer%20t');
    assert.equal(config.otelConnectionTimeout, 1.5);
    assert.equal(config.otelResourceName, 'edge-gw');
    assert.equal(config.otelSamplingType, 'TraceIDRatioBased');
    assert.equal(config.otelSamplingRate, 0.1);
    assert.equal(config.otelSamplingParentBased, true);
    assert.equal(config.otelContextPropagation, 'tracecontext,b3multi');
    assert.equal(config.otelBatchTimeout, 0.2);
    assert.equal(config.otelQueueSize, 100);
  });

  it('takes the traces endpoint as it is, and a gRPC endpoint without a path added', () => {
    assert.equal(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://other:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/custom/traces',
      }).otelEndpoint,
      'https://collector/custom/traces',
    );
    const grpc = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    assert.equal(grpc.otelEndpoint, 'http://collector:4317');
    assert.equal(grpc.otelExporter, 'grpc');
  });

  it("lets gw's own settings win over the standard variables, from the environment and from GW_CONFIG", () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://standard:4318',
      OTEL_SERVICE_NAME: 'from-otel',
      OTEL_TRACES_SAMPLER: 'always_off',
      GW_OTEL_ENDPOINT: 'http://own:4318',
    };
    const config = loadConfig(env);
    assert.equal(config.otelEndpoint, 'http://own:4318');
    assert.equal(config.otelResourceName, 'from-otel');
    assert.equal(config.otelSamplingType, 'AlwaysOff');
    const dir = mkdtempSync(join(tmpdir(), 'gw-otel-config-'));
    const file = join(dir, 'gw.json');
    writeFileSync(file, JSON.stringify({ otelResourceName: 'from-file', otelSamplingType: 'AlwaysOn' }));
    const fromFile = loadConfig({ ...env, GW_CONFIG: file });
    assert.equal(fromFile.otelResourceName, 'from-file');
    assert.equal(fromFile.otelSamplingType, 'AlwaysOn');
  });

  it('takes collector addresses with or without a scheme, IPv6 ones too', () => {
    for (const endpoint of [
      'collector:4317',
      'http://10.0.0.5:4318',
      'https://otlp.example.com/api/traces',
      'http://[::1]:4318',
    ])
      assert.equal(loadConfig({ GW_OTEL_ENDPOINT: endpoint }).otelEndpoint, endpoint);
  });

  it('reads the access log settings: off by default, a template of known fields', () => {
    assert.equal(loadConfig({}).accessLogs, false);
    assert.deepEqual(loadConfig({}).accessLogsTemplate, []);
    const config = loadConfig({ GW_ACCESS_LOGS: 'true', GW_ACCESS_LOGS_TEMPLATE: 'trace_id, status,path' });
    assert.equal(config.accessLogs, true);
    assert.deepEqual(config.accessLogsTemplate, ['trace_id', 'status', 'path']);
    assert.throws(
      () => loadConfig({ GW_ACCESS_LOGS_TEMPLATE: 'trace_id,password' }),
      (err: Error) => err instanceof ConfigError && /GW_ACCESS_LOGS_TEMPLATE/.test(err.message),
    );
  });

  it('turns tracing off with OTEL_SDK_DISABLED, whatever else the standard variables say', () => {
    assert.equal(
      loadConfig({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).otelEndpoint,
      undefined,
    );
  });

  it('refuses values it can not use, naming the variable', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/thrift' }, /OTEL_EXPORTER_OTLP_PROTOCOL: 'http\/thrift' is not one of/],
      [{ OTEL_TRACES_SAMPLER: 'sometimes' }, /OTEL_TRACES_SAMPLER: 'sometimes' is not one of/],
      [{ OTEL_PROPAGATORS: 'tracecontext,xray' }, /OTEL_PROPAGATORS: 'xray' not supported/],
      [{ OTEL_EXPORTER_OTLP_TIMEOUT: 'soon' }, /OTEL_EXPORTER_OTLP_TIMEOUT: 'soon' is not a positive number/],
      [
        { GW_OTEL_EXPORTER: 'zipkin' },
        /GW_OTEL_EXPORTER: 'zipkin' is not one of grpc, http, http\/protobuf, http\/json/,
      ],
      [{ GW_OTEL_CONTEXT_PROPAGATION: 'jaeger' }, /GW_OTEL_CONTEXT_PROPAGATION must be/],
      [{ GW_OTEL_SAMPLING_RATE: '1.5' }, /GW_OTEL_SAMPLING_RATE/],
      [{ GW_OTEL_ENDPOINT: 'http://has space:4318' }, /GW_OTEL_ENDPOINT must be a collector address/],
      [{ GW_OTEL_ENDPOINT: 'ftp://collector:21' }, /GW_OTEL_ENDPOINT must be a collector address/],
    ];
    for (const [env, message] of cases)
      assert.throws(
        () => loadConfig(env),
        (err: Error) => err instanceof ConfigError && message.test(err.message),
      );
  });
});
