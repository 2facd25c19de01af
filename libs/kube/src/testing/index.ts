export { startFakeKubeApiServer, writeKubeconfig } from './fake-apiserver';
export type { FakeKubeApiServer, FakeKubeApiServerOptions, ForbiddenRule } from './fake-apiserver';
export { aScenarioWorld } from './a-scenario-world';
