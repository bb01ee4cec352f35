namespace CloneCopy.Engine;

/// <summary>
/// A cloner that remembers files it wrote by their names (Windows: the copy made at the link limit, a seed for later
/// clones; its own clones, whose data is known to be on the volume when they are the next copy's source). A file
/// written under a temporary name and then renamed (CloneCopyAtomicReplace) would be remembered under a name that no
/// longer exists: the platform that renames tells the transfer chain (<see cref="ClonerTransfer.Renamed"/>), which tells
/// the cloner.
/// </summary>
internal interface IRenameFollowingCloner
{
    /// <summary>The file written at <paramref name="from"/> is now at <paramref name="to"/>.</summary>
    void Renamed(string from, string to);
}
