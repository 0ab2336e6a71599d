// Package brokertest holds eoslab's tests against a real Apache Kafka
// broker: kafka up and down, the wire fault wrapper on a real connection,
// and verify over the scenario and lesson files. It has no code of its own;
// the tests run only when EOSLAB_KAFKA_DIR names a directory that holds a
// fetched classpath (libs-VERSION/, as `eoslab kafka up --dir` leaves it)
// and java is on PATH, and say once that they were skipped otherwise.
package brokertest
