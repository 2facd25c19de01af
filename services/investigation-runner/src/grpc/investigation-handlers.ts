import { implement, type GrpcServiceBinding } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import { agentEnum, investigationStatusEnum, investigationV1 } from '@inquest/proto';
import { toInvestigationMessage } from './investigation-message';
import type { InvestigationService } from '../domain/investigation-service';

/** inquest.investigation.v1.InvestigationService: decode, call the domain, encode. */
export function investigationBinding(
  service: InvestigationService,
  logger: Logger,
): GrpcServiceBinding {
  const def = investigationV1.InvestigationServiceService;
  return {
    definition: def,
    name: 'inquest.investigation.v1.InvestigationService',
    implementation: implement(
      def,
      {
        runInvestigation: async (req, ctx) => {
          const rec = await service.run({
            // forwarded on every call made for the run, so one id follows the request end to end
            requestId: ctx.requestId,
            teamId: req.team_id,
            // the enum, or the string of a peer built before it (an unknown name is refused below)
            agentName: agentEnum.read(req.agent_name_enum, req.agent_name) ?? req.agent_name,
            message: req.message,
            context: req.context ?? {},
            async: req.async,
            requestedBy: req.requested_by,
          });
          return { investigation: toInvestigationMessage(rec) };
        },
        getInvestigation: async (req) => ({
          investigation: toInvestigationMessage(
            await service.get(req.team_id, req.investigation_id),
          ),
        }),
        listInvestigations: async (req) => {
          const limit = req.limit || 20;
          const offset = req.offset || 0;
          const page = await service.list({
            teamId: req.team_id,
            limit,
            offset,
            status: investigationStatusEnum.read(req.status_enum, req.status) ?? req.status,
            agent: agentEnum.read(req.agent_enum, req.agent) ?? req.agent,
          });
          return {
            investigations: page.items.map(toInvestigationMessage),
            total: page.total,
            limit,
            offset,
          };
        },
        cancelInvestigation: async (req) => ({
          investigation: toInvestigationMessage(
            await service.cancel(req.team_id, req.investigation_id),
          ),
        }),
      },
      logger,
    ),
  };
}
