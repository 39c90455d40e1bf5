{{/* Names and labels. */}}
{{- define "lectern.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "lectern.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: lectern
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "delivery"). */}}
{{- define "lectern.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "lectern.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/*
The services: entry file, listeners (the first one carries the probes and /metrics), and which
external engines each one reads. The environment names are the ones docs/cluster.md lists.
*/}}
{{- define "lectern.services" -}}
{{- $graphqlPreview := .Values.graphql.preview -}}
management:
  main: services/management/src/main.ts
  # The second listener is the assets origin: uploaded bytes never share the console's origin.
  listeners:
    - { name: http, value: port, env: LECTERN_PORT }
    - { name: assets, value: assetsPort, env: LECTERN_ASSETS_PORT }
  kafka: true
  s3: true
  operatorToken: true
  managementPublicUrl: true
  assetsPublicUrl: true
  ingress: [{ host: management, port: http }, { host: app, port: http }, { host: assets, port: assets }]
delivery:
  main: services/delivery/src/main.ts
  listeners:
    - { name: http, value: port, env: LECTERN_DELIVERY_PORT }
    - { name: preview, value: previewPort, env: LECTERN_PREVIEW_PORT }
  deliveryIndex: true
  ingress: [{ host: delivery, port: http }, { host: preview, port: preview }]
indexer:
  main: services/indexer/src/main.ts
  listeners: [{ name: http, value: port, env: LECTERN_PORT }]
  # Two consumer groups: lectern-indexer (delivery index) and lectern-recommendations.
  kafka: true
  deliveryIndex: true
  assetsBaseUrl: true
  startupSeconds: 600
graphql:
  main: services/graphql/src/main.ts
  listeners:
    - { name: http, value: port, env: LECTERN_GRAPHQL_PORT }
    {{- if $graphqlPreview }}
    - { name: preview, value: previewPort, env: LECTERN_GRAPHQL_PREVIEW_PORT }
    {{- end }}
  deliveryIndex: true
  {{- if $graphqlPreview }}
  flags: [LECTERN_GRAPHQL_PREVIEW]
  ingress: [{ host: graphql, port: http }, { host: previewGraphql, port: preview }]
  {{- else }}
  ingress: [{ host: graphql, port: http }]
  {{- end }}
recommendations:
  main: services/recommendations/src/main.ts
  listeners: [{ name: http, value: port, env: LECTERN_PORT }]
  # Reads the recommendation index from OpenSearch's k-NN when the delivery index is there
  # (the engine and its URL, not the delivery index's prefix).
  recsIndex: true
  ingress: [{ host: recommendations, port: http }]
webhooks:
  main: services/webhooks/src/main.ts
  listeners: [{ name: http, value: port, env: LECTERN_PORT }]
  kafka: true
  smtp: true
{{- end -}}

{{/*
The delivery index the Delivery, indexer and GraphQL processes share (LECTERN_DELIVERY_INDEX):
its engine, checked here so that a wrong combination fails at render with a message.
*/}}
{{- define "lectern.deliveryIndexEngine" -}}
{{- $d := .Values.deliveryIndex -}}
{{- if not (has $d.engine (list "opensearch" "elasticsearch" "sql")) -}}
{{- fail (printf "deliveryIndex.engine: %q is none of opensearch, elasticsearch, sql" $d.engine) -}}
{{- end -}}
{{- if and (ne $d.engine "sql") (not $d.urlSecret.name) -}}
{{- fail (printf "deliveryIndex.urlSecret.name: engine %s needs the Secret holding the search engine URL (e.g. https://user:password@search:9200); set deliveryIndex.engine=sql to keep the delivery index in PostgreSQL instead" $d.engine) -}}
{{- end -}}
{{- if and (eq $d.engine "sql") $d.indexPrefix (ne $d.indexPrefix "lectern-delivery") -}}
{{- fail "deliveryIndex.indexPrefix: names search engine indices; engine sql has none (leave it at lectern-delivery)" -}}
{{- end -}}
{{- $d.engine -}}
{{- end -}}

{{- define "lectern.secretsDir" -}}/var/run/secrets/lectern{{- end -}}

{{- define "lectern.managementPublicUrl" -}}
{{- if .Values.managementPublicUrl -}}
{{- .Values.managementPublicUrl | trimSuffix "/" -}}
{{- else -}}
{{- printf "%s://%s.%s" (ternary "https" "http" (and .Values.ingress.enabled .Values.ingress.tls.enabled)) .Values.ingress.hostPrefixes.management .Values.domain -}}
{{- end -}}
{{- end -}}

{{- define "lectern.assetsPublicUrl" -}}
{{- if .Values.assetsPublicUrl -}}
{{- .Values.assetsPublicUrl | trimSuffix "/" -}}
{{- else -}}
{{- printf "%s://%s.%s" (ternary "https" "http" (and .Values.ingress.enabled .Values.ingress.tls.enabled)) .Values.ingress.hostPrefixes.assets .Values.domain -}}
{{- end -}}
{{- end -}}

{{/* The secret volumes a component mounts: (dict "root" $ "def" $def "name" $name). */}}
{{- define "lectern.secretVolumes" -}}
{{- $v := .root.Values -}}
- name: database
  secret:
    secretName: {{ required "database.urlSecret.name: the Secret holding the PostgreSQL URL" $v.database.urlSecret.name }}
    items: [{ key: {{ $v.database.urlSecret.key | quote }}, path: url }]
{{- if .def.s3 }}
- name: s3
  secret:
    secretName: {{ required "s3.credentialsSecret.name: the Secret holding the S3 keys" $v.s3.credentialsSecret.name }}
    items:
      - { key: {{ $v.s3.credentialsSecret.accessKeyKey | quote }}, path: access-key }
      - { key: {{ $v.s3.credentialsSecret.secretKeyKey | quote }}, path: secret-key }
{{- end }}
{{- if .def.operatorToken }}
- name: operator-token
  secret:
    secretName: {{ required "operatorToken.secret.name: the Secret holding the admin API token" $v.operatorToken.secret.name }}
    items: [{ key: {{ $v.operatorToken.secret.key | quote }}, path: token }]
{{- end }}
{{- if and (or .def.deliveryIndex .def.recsIndex) (ne (include "lectern.deliveryIndexEngine" .root) "sql") }}
- name: search
  secret:
    secretName: {{ $v.deliveryIndex.urlSecret.name }}
    items: [{ key: {{ $v.deliveryIndex.urlSecret.key | quote }}, path: url }]
{{- end }}
{{- if and .def.smtp .svc.smtp.urlSecret.name }}
- name: smtp
  secret:
    secretName: {{ .svc.smtp.urlSecret.name }}
    items: [{ key: {{ .svc.smtp.urlSecret.key | quote }}, path: url }]
{{- end }}
{{- end -}}

{{- define "lectern.secretMounts" -}}
{{- range (include "lectern.secretVolumes" .) | fromYamlArray }}
- name: {{ .name }}
  mountPath: {{ include "lectern.secretsDir" $ }}/{{ .name }}
  readOnly: true
{{- end }}
{{- end -}}

{{/* The environment of a component: (dict "root" $ "def" $def "name" $name "svc" $svc). */}}
{{- define "lectern.env" -}}
{{- $v := .root.Values -}}
{{- $dir := include "lectern.secretsDir" . -}}
- { name: LECTERN_DATABASE_URL_FILE, value: {{ printf "%s/database/url" $dir | quote }} }
- { name: LECTERN_HOST, value: {{ $v.listenHost | quote }} }
- { name: LECTERN_LOG_LEVEL, value: {{ $v.logLevel | quote }} }
- { name: LECTERN_SHUTDOWN_GRACE_MS, value: {{ mul $v.shutdownGraceSeconds 1000 | toString | quote }} }
{{- range .def.listeners }}
- { name: {{ .env }}, value: {{ index $.svc .value | toString | quote }} }
{{- end }}
{{- if .def.kafka }}
- { name: LECTERN_KAFKA_BROKERS, value: {{ required "kafka.brokers: the Kafka bootstrap brokers" $v.kafka.brokers | quote }} }
- { name: LECTERN_KAFKA_TOPIC, value: {{ $v.kafka.topic | quote }} }
{{- end }}
{{- if .def.s3 }}
- { name: LECTERN_S3_ENDPOINT, value: {{ required "s3.endpoint: the S3 API base URL" $v.s3.endpoint | quote }} }
- { name: LECTERN_S3_REGION, value: {{ $v.s3.region | quote }} }
- { name: LECTERN_S3_BUCKET, value: {{ $v.s3.bucket | quote }} }
- { name: LECTERN_S3_ACCESS_KEY_FILE, value: {{ printf "%s/s3/access-key" $dir | quote }} }
- { name: LECTERN_S3_SECRET_KEY_FILE, value: {{ printf "%s/s3/secret-key" $dir | quote }} }
{{- end }}
{{- if .def.operatorToken }}
- { name: LECTERN_OPERATOR_TOKEN_FILE, value: {{ printf "%s/operator-token/token" $dir | quote }} }
{{- end }}
{{- if .def.assetsBaseUrl }}
- { name: LECTERN_ASSETS_BASE_URL, value: {{ printf "%s/assets" (include "lectern.assetsPublicUrl" .root) | quote }} }
{{- end }}
{{- if .def.managementPublicUrl }}
- { name: LECTERN_MANAGEMENT_PUBLIC_URL, value: {{ include "lectern.managementPublicUrl" .root | quote }} }
{{- end }}
{{- if .def.assetsPublicUrl }}
- { name: LECTERN_ASSETS_PUBLIC_URL, value: {{ include "lectern.assetsPublicUrl" .root | quote }} }
{{- end }}
{{- if or .def.deliveryIndex .def.recsIndex }}
{{- $engine := include "lectern.deliveryIndexEngine" .root }}
- { name: LECTERN_DELIVERY_INDEX, value: {{ $engine | quote }} }
{{- if ne $engine "sql" }}
- { name: LECTERN_SEARCH_URL_FILE, value: {{ printf "%s/search/url" $dir | quote }} }
{{- if .def.deliveryIndex }}
- { name: LECTERN_SEARCH_INDEX_PREFIX, value: {{ $v.deliveryIndex.indexPrefix | quote }} }
{{- end }}
{{- end }}
{{- end }}
{{- if and .def.smtp .svc.smtp.urlSecret.name }}
- { name: LECTERN_SMTP_URL_FILE, value: {{ printf "%s/smtp/url" $dir | quote }} }
{{- end }}
{{- range .def.flags }}
- { name: {{ . }}, value: "true" }
{{- end }}
{{- range $key, $value := .svc.config }}
- { name: {{ printf "LECTERN_%s" (snakecase $key | upper) }}, value: {{ $value | toString | quote }} }
{{- end }}
{{- with .svc.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Pod-level settings shared by the Deployments and the migrations Job. */}}
{{- define "lectern.podCommon" -}}
{{- $v := .Values -}}
{{- with $v.imagePullSecrets }}
imagePullSecrets: {{- toYaml . | nindent 2 }}
{{- end }}
{{- if $v.serviceAccountName }}
serviceAccountName: {{ $v.serviceAccountName }}
{{- end }}
automountServiceAccountToken: false
{{- with $v.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
securityContext: {{- toYaml $v.podSecurityContext | nindent 2 }}
{{- with $v.nodeSelector }}
nodeSelector: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.tolerations }}
tolerations: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.affinity }}
affinity: {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
