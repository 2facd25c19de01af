import { DeliveryChannel, DeliveryStatus } from '@inquest/api-contract';
import { Option } from 'commander';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { json, table } from '../format';

export function registerWebhookCommands(program: Command, ctx: CliContext): void {
  const webhooks = program
    .command('webhooks')
    .description("the team's webhook and chat deliveries");

  webhooks
    .command('deliveries')
    .description('recent deliveries, newest first')
    .option('-l, --limit <n>', 'how many (1..100)', '20')
    .addOption(new Option('--status <status>', 'only this status').choices(DeliveryStatus.options))
    .addOption(
      new Option('--channel <channel>', 'only this channel').choices(DeliveryChannel.options),
    )
    .option('--json', 'print JSON')
    .action(
      async (f: {
        limit: string;
        status?: (typeof DeliveryStatus.options)[number];
        channel?: (typeof DeliveryChannel.options)[number];
        json?: boolean;
      }) => {
        const res = await ctx
          .client()
          .webhooks.deliveries({ limit: Number(f.limit), status: f.status, channel: f.channel });
        if (f.json) return ctx.print(json(res));
        if (!res.deliveries.length) return ctx.print('No deliveries.');
        ctx.print(
          table(
            ['DELIVERY', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'CREATED', 'TARGET'],
            res.deliveries.map((d) => [
              d.delivery_id,
              d.event,
              d.status,
              String(d.attempts),
              d.last_status_code !== undefined ? String(d.last_status_code) : (d.last_error ?? '-'),
              d.created_at,
              d.target,
            ]),
            ctx.out,
          ),
        );
      },
    );

  webhooks
    .command('redeliver')
    .description('send a finished delivery again')
    .argument('<delivery_id>')
    .action(async (id: string) => {
      const res = await ctx.client().webhooks.redeliver(id);
      ctx.print(`Redelivering ${id} as ${res.delivery.delivery_id} (${res.delivery.status})`);
    });
}
