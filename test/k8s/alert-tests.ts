/**
 * `promtool test rules` cases for the chart's alerts (release `lectern` in namespace `lectern`):
 * series as the ServiceMonitor's targets carry them (job = the Kubernetes Service), each alert
 * firing once its threshold has held for `for` (10m), none before, and none for another
 * namespace's series or a webhook queue that drains.
 */
export function alertRuleTests(rulesFile: string): unknown {
  const at = (job: string, extra = '') => `{namespace="lectern", job="lectern-${job}"${extra}}`;
  const warning = { severity: 'warning' };
  return {
    rule_files: [rulesFile],
    evaluation_interval: '1m',
    tests: [
      {
        interval: '1m',
        input_series: [
          // The oldest unrelayed event ages a minute a minute; the index lags 1000 events; the
          // indexer's group 5000; Delivery answers 100 requests a minute, 10 of them 500s.
          { series: `lectern_outbox_relay_oldest_pending_seconds${at('management')}`, values: '0+60x40' },
          { series: `lectern_index_watermark_lag_events${at('indexer')}`, values: '1000x40' },
          {
            series: `lectern_event_consumer_lag_events${at('indexer', ', group="lectern-indexer"')}`,
            values: '5000x40',
          },
          // Webhooks: 10 notifications a minute delivered, each after 300 s to 3600 s (p99 ≈ 3567 s);
          // 5 pending, none delivered (the accepted counter stays flat).
          {
            series: `lectern_webhook_delivery_latency_seconds_bucket${at('webhooks', ', le="300"')}`,
            values: '0x40',
          },
          {
            series: `lectern_webhook_delivery_latency_seconds_bucket${at('webhooks', ', le="3600"')}`,
            values: '0+10x40',
          },
          {
            series: `lectern_webhook_delivery_latency_seconds_bucket${at('webhooks', ', le="+Inf"')}`,
            values: '0+10x40',
          },
          { series: `lectern_webhook_notifications${at('webhooks', ', state="pending"')}`, values: '5x40' },
          { series: `lectern_webhook_notifications${at('webhooks', ', state="delivered"')}`, values: '900x40' },
          {
            series: `lectern_webhook_notifications_sent_total${at('webhooks', ', outcome="accepted"')}`,
            values: '0x40',
          },
          {
            series: `lectern_http_request_duration_seconds_count${at('delivery', ', status="200"')}`,
            values: '0+90x40',
          },
          {
            series: `lectern_http_request_duration_seconds_count${at('delivery', ', status="500"')}`,
            values: '0+10x40',
          },
          {
            series: `lectern_http_request_duration_seconds_count${at('management', ', status="201"')}`,
            values: '0+50x40',
          },
        ],
        alert_rule_test: [
          { eval_time: '5m', alertname: 'LecternIndexLag', exp_alerts: [] },
          { eval_time: '5m', alertname: 'LecternOutboxRelayBehind', exp_alerts: [] },
          {
            eval_time: '20m',
            alertname: 'LecternOutboxRelayBehind',
            exp_alerts: [
              {
                exp_labels: warning,
                exp_annotations: {
                  summary: 'Committed change events wait to be relayed to Kafka',
                  description:
                    'The oldest committed change event has waited 20m 0s for the outbox relay (is Kafka reachable from Management?).',
                },
              },
            ],
          },
          {
            eval_time: '20m',
            alertname: 'LecternEventConsumerLag',
            exp_alerts: [
              {
                exp_labels: { ...warning, group: 'lectern-indexer' },
                exp_annotations: {
                  summary: 'A consumer group falls behind the change-event topic',
                  description: 'Consumer group lectern-indexer has 5000 change events not handled yet.',
                },
              },
            ],
          },
          {
            eval_time: '20m',
            alertname: 'LecternIndexLag',
            exp_alerts: [
              {
                exp_labels: warning,
                exp_annotations: {
                  summary: 'The delivery index falls behind committed changes',
                  description:
                    '1000 committed change events are not in the delivery index yet: Delivery serves older content.',
                },
              },
            ],
          },
          { eval_time: '5m', alertname: 'LecternWebhookDeliverySlow', exp_alerts: [] },
          {
            eval_time: '20m',
            alertname: 'LecternWebhookDeliverySlow',
            exp_alerts: [
              {
                exp_labels: warning,
                exp_annotations: {
                  summary: 'Webhook notifications are delivered late',
                  description:
                    '1% of the webhook notifications delivered in the last 10m waited more than 59m 27s (receivers slow to accept, or retries).',
                },
              },
            ],
          },
          { eval_time: '5m', alertname: 'LecternWebhookQueueStalled', exp_alerts: [] },
          {
            eval_time: '20m',
            alertname: 'LecternWebhookQueueStalled',
            exp_alerts: [
              {
                exp_labels: warning,
                exp_annotations: {
                  summary: 'Webhook notifications wait and none is delivered',
                  description:
                    '5 webhook notifications are pending and none was delivered for 600s (receivers failing, or the webhooks worker stuck).',
                },
              },
            ],
          },
          {
            eval_time: '20m',
            alertname: 'LecternHighErrorRate',
            exp_alerts: [
              {
                exp_labels: { severity: 'critical', job: 'lectern-delivery' },
                exp_annotations: {
                  summary: 'An API answers with 5xx',
                  description: '10% of the lectern-delivery answers are 5xx.',
                },
              },
            ],
          },
        ],
      },
      {
        interval: '1m',
        input_series: [
          { series: 'lectern_index_watermark_lag_events{namespace="other", job="lectern-indexer"}', values: '9000x40' },
          {
            series: 'lectern_outbox_relay_oldest_pending_seconds{namespace="other", job="x-management"}',
            values: '9000x40',
          },
          // A queue that drains: pending notifications while deliveries succeed (and another
          // namespace's stalled queue) raise nothing.
          { series: `lectern_webhook_notifications${at('webhooks', ', state="pending"')}`, values: '5x40' },
          {
            series: `lectern_webhook_notifications_sent_total${at('webhooks', ', outcome="accepted"')}`,
            values: '0+3x40',
          },
          {
            series: 'lectern_webhook_notifications{namespace="other", job="lectern-webhooks", state="pending"}',
            values: '5x40',
          },
        ],
        alert_rule_test: [
          { eval_time: '20m', alertname: 'LecternIndexLag', exp_alerts: [] },
          { eval_time: '20m', alertname: 'LecternOutboxRelayBehind', exp_alerts: [] },
          { eval_time: '20m', alertname: 'LecternWebhookQueueStalled', exp_alerts: [] },
        ],
      },
    ],
  };
}
