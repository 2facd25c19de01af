export { startFakeKubeApiServer, writeKubeconfig } from './fake-apiserver';
export type { FakeKubeApiServer, FakeKubeApiServerOptions, ForbiddenRule } from './fake-apiserver';
export { aScenarioWorld, customResourceObjects } from './a-scenario-world';
