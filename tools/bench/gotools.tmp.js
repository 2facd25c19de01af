const { WorldIndex, loadWorld } = require('@inquest/kube');
const { mcpK8sGoTools } = require('/work/main/tools/bench/dist/investigation-quality/vocabularies/mcp-k8s-go.js');
const { loadScenarios } = require('/work/main/tools/bench/dist/investigation-quality/scenario.js');
const r = loadScenarios('/work/main/tools/bench/data/investigations/scenarios');
const s = r.scenarios.find((x) => x.id.includes(process.argv[2] || 'oom-checkout'));
const tools = mcpK8sGoTools(new WorldIndex(s));
const calls = JSON.parse(process.argv[3] || '[]');
if (!calls.length) for (const t of tools) console.log(t.name, JSON.stringify(t.description).slice(0,200), JSON.stringify(t.inputSchema));
for (const [name, args] of calls) { const t = tools.find((x) => x.name === name); try { const o = t.run(args); console.log('==', name, JSON.stringify(args)); console.log(Array.isArray(o) ? o.slice(0,6).join('\n') : String(o).slice(0,1500)); } catch (e) { console.log('ERR', e.message); } }
