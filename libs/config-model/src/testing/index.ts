export { aTeamConfig } from './a-team-config';
