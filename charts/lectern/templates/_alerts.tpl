{{/*
The alert rules (a Prometheus rule file's `groups`), on the metrics the services export
(packages/http-kit): lectern_outbox_relay_oldest_pending_seconds (management),
lectern_event_consumer_lag_events and lectern_index_watermark_lag_events (indexer),
lectern_webhook_delivery_latency_seconds, lectern_webhook_notifications and
lectern_webhook_notifications_sent_total (webhooks, services/webhooks/src/metrics.ts) and
lectern_http_request_duration_seconds (every API). The webhooks service exports no age of its
oldest pending notification: queue age is watched as late deliveries (p99 latency) and as a
queue that holds notifications while none is delivered.
*/}}
{{- define "lectern.alertGroups" -}}
{{- $r := .Values.metrics.prometheusRule -}}
{{- /* The ServiceMonitor's targets: job is the Kubernetes Service's name (the metrics' own
`service` label becomes exported_service beside Prometheus' target label). */ -}}
{{- $sel := printf "namespace=%q, job=~%q" .Release.Namespace (printf "%s-.*" (include "lectern.fullname" .)) -}}
groups:
  - name: lectern
    rules:
      - alert: LecternOutboxRelayBehind
        expr: max(lectern_outbox_relay_oldest_pending_seconds{ {{- $sel -}} }) > {{ $r.relayOldestPendingSeconds }}
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: Committed change events wait to be relayed to Kafka
          description: The oldest committed change event has waited {{ "{{" }} $value | humanizeDuration {{ "}}" }} for the outbox relay (is Kafka reachable from Management?).
      - alert: LecternEventConsumerLag
        expr: max by (group) (lectern_event_consumer_lag_events{ {{- $sel -}} }) > {{ $r.consumerLagEvents }}
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: A consumer group falls behind the change-event topic
          description: Consumer group {{ "{{" }} $labels.group {{ "}}" }} has {{ "{{" }} $value {{ "}}" }} change events not handled yet.
      - alert: LecternIndexLag
        expr: max(lectern_index_watermark_lag_events{ {{- $sel -}} }) > {{ $r.indexLagEvents }}
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: The delivery index falls behind committed changes
          description: '{{ "{{" }} $value {{ "}}" }} committed change events are not in the delivery index yet: Delivery serves older content.'
      - alert: LecternWebhookDeliverySlow
        expr: |-
          histogram_quantile(0.99, sum by (le) (rate(lectern_webhook_delivery_latency_seconds_bucket{ {{- $sel -}} }[10m])))
            > {{ $r.webhookDeliverySeconds }}
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: Webhook notifications are delivered late
          description: 1% of the webhook notifications delivered in the last 10m waited more than {{ "{{" }} $value | humanizeDuration {{ "}}" }} (receivers slow to accept, or retries).
      - alert: LecternWebhookQueueStalled
        expr: |-
          max(lectern_webhook_notifications{ {{- $sel -}}, state="pending"}) > 0
            unless sum(increase(lectern_webhook_notifications_sent_total{ {{- $sel -}}, outcome="accepted"}[{{ $r.webhookDeliverySeconds }}s])) > 0
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: Webhook notifications wait and none is delivered
          description: '{{ "{{" }} $value {{ "}}" }} webhook notifications are pending and none was delivered for {{ $r.webhookDeliverySeconds }}s (receivers failing, or the webhooks worker stuck).'
      - alert: LecternHighErrorRate
        expr: |-
          sum by (job) (rate(lectern_http_request_duration_seconds_count{ {{- $sel -}}, status=~"5.."}[5m]))
            / sum by (job) (rate(lectern_http_request_duration_seconds_count{ {{- $sel -}} }[5m]))
            > {{ $r.errorRatio }}
        for: {{ $r.for }}
        labels: { severity: critical }
        annotations:
          summary: An API answers with 5xx
          description: '{{ "{{" }} $value | humanizePercentage {{ "}}" }} of the {{ "{{" }} $labels.job {{ "}}" }} answers are 5xx.'
{{- end -}}
