using Xunit;

// Tests mount filesystems, change the process's current directory (relative item specs resolve against it,
// as in a real build) and set MSBuild's environment variables: they must not overlap.
[assembly: CollectionBehavior(DisableTestParallelization = true)]

// The suite proves behaviour on real Linux filesystems (loop mounts, FIEMAP, modes).
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]
