using Xunit;

// Tests change the process's current directory and environment variables: they must not overlap.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
